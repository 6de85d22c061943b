import Foundation
import Testing
@testable import FaultlineSQLite

/// `visitRows`: a query's rows handed to Swift from inside SQLite's loop by
/// the FAULTLINE_VISIT_ROWS aggregate, each row once, in the order SQLite
/// reads them, until the visitor refuses one.
@Suite("Visiting rows inside SQLite's loop")
struct RowVisitorTests {
    private static func numbers() throws -> Connection {
        let connection = try Connection(.inMemory)
        try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, label TEXT)")
        for id in 1...5 {
            try connection.execute("INSERT INTO t (id, n, label) VALUES (?, ?, ?)",
                                   [.integer(Int64(id)), id == 3 ? .null : .integer(Int64(id * 10)), .text("r\(id)")])
        }
        return connection
    }

    @Test("Each row's arguments in key order, types and values as SQLite holds them; one statement, one result row")
    func visitsEveryRow() throws {
        let connection = try Self.numbers()
        let before = connection.counters
        var seen: [String] = []
        let taken = try connection.visitRows(
            "SELECT FAULTLINE_VISIT_ROWS(id, n, label) FROM t WHERE id BETWEEN ?1 AND ?2", bindings: [.integer(2), .integer(4)]
        ) { row in
            seen.append("\(row.int64(at: 0)) \(row.type(at: 1)) \(row.isNull(at: 1) ? "-" : String(row.int64(at: 1))) \(row.string(at: 2) ?? "")")
            return true
        }
        #expect(taken)
        #expect(seen == ["2 integer 20 r2", "3 null - r3", "4 integer 40 r4"])
        let counters = connection.counters - before
        #expect(counters.statementsExecuted == 1)
        #expect(counters.rowsReturned == 1)
    }

    @Test("A refused row ends the visit: no later row is handed over, and the answer is false; the next visit starts afresh")
    func refusalStopsTheVisit() throws {
        let connection = try Self.numbers()
        let sql = "SELECT FAULTLINE_VISIT_ROWS(id) FROM t"
        var seen: [Int64] = []
        #expect(try !connection.visitRows(sql, bindings: []) { row in
            seen.append(row.int64(at: 0))
            return row.int64(at: 0) < 2
        })
        #expect(seen == [1, 2])
        seen = []
        #expect(try connection.visitRows(sql, bindings: []) { seen.append($0.int64(at: 0)); return true })
        #expect(seen == [1, 2, 3, 4, 5])
    }

    @Test("No rows: the visitor is never called and the visit is complete")
    func noRows() throws {
        let connection = try Self.numbers()
        var calls = 0
        #expect(try connection.visitRows("SELECT FAULTLINE_VISIT_ROWS(id) FROM t WHERE id > 99", bindings: []) { _ in
            calls += 1
            return true
        })
        #expect(calls == 0)
    }

    @Test("Registering the function on first use leaves statements prepared before it valid")
    func registrationExpiresNothing() throws {
        let connection = try Self.numbers()
        let count = try connection.cachedStatement("SELECT COUNT(*) FROM t")
        let preparedBefore = connection.counters.statementsPrepared
        _ = try connection.visitRows("SELECT FAULTLINE_VISIT_ROWS(id) FROM t", bindings: []) { _ in true }
        let again = try connection.cachedStatement("SELECT COUNT(*) FROM t")
        #expect(again === count)
        #expect(try again.step() && again.int64(at: 0) == 5)
        again.reset()
        // Only the visit's own statement was prepared.
        #expect(connection.counters.statementsPrepared == preparedBefore + 1)
    }

    @Test("Malformed SQL is a typed SQLite error, and the visitor is left unset")
    func malformedSQL() throws {
        let connection = try Self.numbers()
        #expect(throws: SQLiteError.self) {
            try connection.visitRows("SELECT FAULTLINE_VISIT_ROWS(id FROM t", bindings: []) { _ in true }
        }
        #expect(connection.rowVisitor?.visit == nil)
    }
}
