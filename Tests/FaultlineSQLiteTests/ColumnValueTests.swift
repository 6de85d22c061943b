import Testing
@testable import FaultlineSQLite

/// A column read once through `column(at:)` gives what the per-call accessors
/// give, conversions and NULLs included.
@Suite("Column values read as the per-call accessors read")
struct ColumnValueTests {
    @Test("Integers, reals, text, ill-formed text, blobs and NULL: type, integer, double and text agree")
    func agreesWithAccessors() throws {
        let connection = try Connection(.inMemory)
        let rows = try connection.cachedStatement("""
            SELECT 42, -7.5, 'café', '', NULL, X'61FF62', x'C3A9', 9223372036854775807, '12abc'
            """)
        defer { rows.reset() }
        #expect(try rows.step())
        for index in Int32(0)..<rows.columnCount {
            #expect(rows.column(at: index).isNull == rows.isNull(at: index), "column \(index)")
            #expect(rows.column(at: index).int64 == rows.int64(at: index), "column \(index)")
            #expect(rows.column(at: index).double.bitPattern == rows.double(at: index).bitPattern, "column \(index)")
            #expect(rows.column(at: index).string == rows.string(at: index), "column \(index)")
        }
        #expect(rows.column(at: 2).string == "café")
        #expect(rows.column(at: 3).string == "")
        #expect(rows.column(at: 4).string == nil && rows.column(at: 4).isNull)
        #expect(rows.column(at: 5).string == String(decoding: [0x61, 0xFF, 0x62], as: UTF8.self))
        #expect(rows.column(at: 0).string == "42")
    }

    @Test("One value read twice, text after a number: the text is the number's")
    func rereadAfterConversion() throws {
        let connection = try Connection(.inMemory)
        let rows = try connection.cachedStatement("SELECT 1234")
        defer { rows.reset() }
        #expect(try rows.step())
        let column = rows.column(at: 0)
        #expect(column.int64 == 1234)
        #expect(column.string == "1234")
        #expect(column.int64 == 1234)
    }
}
