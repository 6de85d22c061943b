import Foundation
import Testing
@testable import FaultlineSQLite

/// Scalar SQL functions written in Swift.
@Suite("Custom SQL functions")
struct FunctionTests {
    @Test("A deterministic function is callable from SQL and usable in an index")
    func deterministic() throws {
        let connection = try Connection(.inMemory)
        try connection.createFunction("fl_reverse", argumentCount: 1) { arguments in
            guard let text = arguments.string(at: 0) else { return .null }
            return .text(String(text.reversed()))
        }
        #expect(try connection.scalar("SELECT fl_reverse(?)", [.text("abc")]) == .text("cba"))
        #expect(try connection.scalar("SELECT fl_reverse(NULL)") == .null)
        // Only deterministic functions are allowed in index expressions.
        try connection.execute("CREATE TABLE t (name TEXT); CREATE INDEX t_rev ON t (fl_reverse(name))")
    }

    @Test("Every argument and result type passes through")
    func types() throws {
        let connection = try Connection(.inMemory)
        try connection.createFunction("fl_identity", argumentCount: 1) { $0.value(at: 0) }
        for value: SQLValue in [.null, .integer(-5), .real(0.25), .text(""), .text("ü"), .blob(Data()), .blob(Data([0, 9]))] {
            #expect(try connection.scalar("SELECT fl_identity(?)", [value]) == value)
        }
    }

    @Test("A thrown FunctionError becomes the SQL error message")
    func throwing() throws {
        let connection = try Connection(.inMemory)
        try connection.createFunction("fl_fail", argumentCount: 0) { _ in throw FunctionError("refused on purpose") }
        let error = try #require(throws: SQLiteError.self) { try connection.scalar("SELECT fl_fail()") }
        #expect(error.message == "refused on purpose")
        #expect(error.sql == "SELECT fl_fail()")
    }

    @Test("A non-deterministic function cannot be used in an index")
    func nonDeterministic() throws {
        let connection = try Connection(.inMemory)
        try connection.createFunction("fl_random", argumentCount: 0, deterministic: false) { _ in .integer(4) }
        #expect(throws: SQLiteError.self) {
            try connection.execute("CREATE TABLE t (x); CREATE INDEX t_r ON t (fl_random())")
        }
    }
}
