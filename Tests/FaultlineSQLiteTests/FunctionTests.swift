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

    @Test("A text function remembers only its last call: repeats, alternations, NULL, empty and ill-formed text all answer right")
    func textFunctionMemo() throws {
        let connection = try Connection(.inMemory)
        final class Calls { var count = 0 }
        let calls = Calls()
        try connection.createTextFunction("fl_upper") { text in
            calls.count += 1
            return text.uppercased()
        }
        let inputs: [SQLValue] = [
            .text("straße"), .text("straße"), .text("abc"), .text("straße"), .null, .text(""), .text(""),
            .text("a longer text than fifteen bytes"), .text("a longer text than fifteen bytes"), .text("abd"),
        ]
        for input in inputs {
            let expected: SQLValue = if case .text(let text) = input { .text(text.uppercased()) } else { .null }
            #expect(try connection.scalar("SELECT fl_upper(?)", [input]) == expected)
        }
        // Computed again only when the text differs from the call before (NULL is not a call).
        #expect(calls.count == 6)
        // Ill-formed UTF-8 is repaired as `String(decoding:as:)` repairs it, and a
        // blob is read as its bytes.
        let illFormed = Data([0x61, 0xFF, 0x62])
        #expect(try connection.scalar("SELECT fl_upper(CAST(? AS TEXT))", [.blob(illFormed)])
            == .text(String(decoding: illFormed, as: UTF8.self).uppercased()))
        #expect(try connection.scalar("SELECT fl_upper(? || fl_upper('x'))", [.text("y")]) == .text("YX"))
    }

    @Test("A byte-level text function reads SQLite's bytes as they are and returns what it appended, from empty")
    func byteTextFunction() throws {
        let connection = try Connection(.inMemory)
        try connection.createTextFunction("fl_mark", utf8: { argument, result in
            #expect(result.isEmpty)
            result.append(contentsOf: argument)
            result.append(UInt8(ascii: "!"))
        })
        #expect(try connection.scalar("SELECT fl_mark('abc')") == .text("abc!"))
        #expect(try connection.scalar("SELECT fl_mark('abc')") == .text("abc!"))
        #expect(try connection.scalar("SELECT fl_mark('')") == .text("!"))
        #expect(try connection.scalar("SELECT fl_mark(NULL)") == .null)
        // Ill-formed text reaches the transform unrepaired.
        #expect(try connection.scalar("SELECT CAST(fl_mark(CAST(? AS TEXT)) AS BLOB)", [.blob(Data([0x61, 0xFF]))])
            == .blob(Data([0x61, 0xFF, 0x21])))
    }
}
