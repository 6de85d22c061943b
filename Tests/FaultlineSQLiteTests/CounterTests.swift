import Testing
@testable import FaultlineSQLite

/// Per-connection counters and the process totals count statements, rows
/// and VM steps exactly.
@Suite("SQLite counters")
struct CounterTests {
    @Test("Executions, rows and VM steps are counted per execution")
    func perExecution() throws {
        let connection = try Connection(.inMemory)
        try connection.execute("CREATE TABLE t (x)")
        let insert = try connection.prepare("INSERT INTO t VALUES (?)")
        connection.resetCounters()
        for value in 0..<10 {
            try insert.bind(Int64(value), at: 1)
            try insert.execute()
        }
        #expect(connection.counters.statementsExecuted == 10)
        #expect(connection.counters.rowsReturned == 0)
        #expect(connection.counters.vmSteps > 0)

        connection.resetCounters()
        let select = try connection.prepare("SELECT x FROM t")
        var seen = 0
        while try select.step() { seen += 1 }
        #expect(seen == 10)
        #expect(connection.counters.statementsPrepared == 1)
        #expect(connection.counters.statementsExecuted == 1)
        #expect(connection.counters.rowsReturned == 10)
    }

    @Test("A reset in the middle of a query ends its execution once")
    func resetMidway() throws {
        let connection = try Connection(.inMemory)
        try connection.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")
        let select = try connection.prepare("SELECT x FROM t")
        connection.resetCounters()
        #expect(try select.step())
        select.reset()
        select.reset()
        #expect(connection.counters.statementsExecuted == 1)
        #expect(connection.counters.rowsReturned == 1)
    }

    @Test("Process totals include every connection and recorded external work")
    func processTotals() throws {
        let before = SQLiteCounters.processTotals()
        var external = SQLiteCounters()
        external.statementsExecuted = 1_000_000
        external.rowsReturned = 7
        SQLiteCounters.recordExternalWork(external)
        let connection = try Connection(.inMemory)
        _ = try connection.rows("SELECT 1 UNION ALL SELECT 2")
        let delta = SQLiteCounters.processTotals() - before
        // Other tests run concurrently, so the totals can only be bounded below.
        #expect(delta.statementsExecuted >= 1_000_000 + connection.counters.statementsExecuted)
        #expect(delta.rowsReturned >= 9)
    }
}
