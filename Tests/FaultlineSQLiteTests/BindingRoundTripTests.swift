import Foundation
import Testing
@testable import FaultlineSQLite

/// Every bindable type comes back from SQLite exactly as it went in.
@Suite("Binding and reading round trips")
struct BindingRoundTripTests {
    let connection: Connection

    init() throws {
        connection = try Connection(.inMemory)
        try connection.execute("CREATE TABLE t (value)")
    }

    /// Stores `bind`'s value in a fresh row and returns the statement positioned on it.
    private func roundTrip<T>(_ bind: (Statement) throws -> Void, read: (Statement) -> T) throws -> T {
        try connection.execute("DELETE FROM t")
        let insert = try connection.cachedStatement("INSERT INTO t (value) VALUES (?)")
        try bind(insert)
        try insert.execute()
        let select = try connection.cachedStatement("SELECT value FROM t")
        defer { select.reset() }
        #expect(try select.step())
        return read(select)
    }

    @Test("Int64 extremes and zero", arguments: [Int64.min, -1, 0, 1, Int64.max])
    func integers(value: Int64) throws {
        let read = try roundTrip({ try $0.bind(value, at: 1) }, read: { $0.int64(at: 0) })
        #expect(read == value)
    }

    @Test("Doubles, including infinities and the smallest subnormal",
          arguments: [0.0, -0.0, 1.5, -1e300, Double.infinity, -Double.infinity, Double.leastNonzeroMagnitude])
    func doubles(value: Double) throws {
        let read = try roundTrip({ try $0.bind(value, at: 1) }, read: { $0.double(at: 0) })
        #expect(read == value)
        #expect(read.sign == value.sign)
    }

    @Test("Booleans are stored as 0 and 1", arguments: [true, false])
    func booleans(value: Bool) throws {
        let (stored, read) = try roundTrip({ try $0.bind(value, at: 1) }, read: { ($0.int64(at: 0), $0.bool(at: 0)) })
        #expect(stored == (value ? 1 : 0))
        #expect(read == value)
    }

    @Test("Text: empty, ASCII, Unicode, embedded NUL, long",
          arguments: ["", "a", "Café Crème", "日本語テキスト", "👩‍👩‍👧‍👦 family", "nul\u{0}inside\u{0}", String(repeating: "x", count: 100_000)])
    func text(value: String) throws {
        let (type, read) = try roundTrip({ try $0.bind(value, at: 1) }, read: { ($0.columnType(at: 0), $0.string(at: 0)) })
        #expect(type == .text)
        #expect(read == value)
        #expect(read?.utf8.count == value.utf8.count)
    }

    @Test("Blobs: empty stays an empty blob, bytes survive, large blobs", arguments: [0, 1, 3, 255, 4 << 20])
    func blobs(size: Int) throws {
        let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let (type, read) = try roundTrip({ try $0.bind(bytes, at: 1) }, read: { ($0.columnType(at: 0), $0.data(at: 0)) })
        #expect(type == .blob)
        #expect(read == bytes)
    }

    @Test("Byte arrays bind like Data")
    func byteArrays() throws {
        let bytes: [UInt8] = [0, 1, 0, 255]
        let read = try roundTrip({ try $0.bind(bytes, at: 1) }, read: { $0.data(at: 0) })
        #expect(read == Data(bytes))
    }

    @Test("NULL reads as nil, and as zero through the numeric readers")
    func null() throws {
        let read = try roundTrip({ try $0.bindNull(at: 1) }, read: { ($0.isNull(at: 0), $0.string(at: 0), $0.data(at: 0), $0.int64(at: 0)) })
        #expect(read.0)
        #expect(read.1 == nil)
        #expect(read.2 == nil)
        #expect(read.3 == 0)
    }

    @Test("Dynamically typed values round-trip through SQLValue",
          arguments: [SQLValue.null, .integer(42), .real(2.5), .text("é"), .blob(Data([1, 2, 3]))])
    func sqlValues(value: SQLValue) throws {
        let read = try roundTrip({ try $0.bind(value, at: 1) }, read: { $0.value(at: 0) })
        #expect(read == value)
    }

    @Test("Bindings persist across executions until rebound")
    func bindingsPersist() throws {
        let insert = try connection.cachedStatement("INSERT INTO t (value) VALUES (?)")
        try insert.bind(Int64(7), at: 1)
        try insert.execute()
        try insert.execute()
        #expect(try connection.scalar("SELECT count(*) FROM t WHERE value = 7") == .integer(2))
    }

    @Test("Binding out of range is a range error naming the SQL")
    func outOfRange() throws {
        let insert = try connection.cachedStatement("INSERT INTO t (value) VALUES (?)")
        let error = try #require(throws: SQLiteError.self) { try insert.bind(Int64(1), at: 2) }
        #expect(error.code == .range)
        #expect(error.sql == "INSERT INTO t (value) VALUES (?)")
    }
}
