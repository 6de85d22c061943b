import Testing
@testable import FaultlineSQLite

/// The statement cache counts exactly, evicts the least recently used
/// statement at capacity, and drops a statement whose step failed.
@Suite("Statement cache")
struct StatementCacheTests {
    private func connection(capacity: Int) throws -> Connection {
        var configuration = Connection.Configuration()
        configuration.statementCacheCapacity = capacity
        return try Connection(.inMemory, configuration: configuration)
    }

    @Test("Hits and misses are counted exactly")
    func hitsAndMisses() throws {
        let connection = try connection(capacity: 8)
        connection.resetCounters()
        let first = try connection.cachedStatement("SELECT 1")
        let again = try connection.cachedStatement("SELECT 1")
        _ = try connection.cachedStatement("SELECT 2")
        _ = try connection.cachedStatement("SELECT 1")
        #expect(first === again)
        #expect(connection.counters.cacheHits == 2)
        #expect(connection.counters.cacheMisses == 2)
        #expect(connection.counters.statementsPrepared == 2)
        #expect(connection.counters.cacheEvictions == 0)
        #expect(connection.statementCache.count == 2)
    }

    @Test("At capacity the least recently used statement is evicted", arguments: [1, 2, 3, 5])
    func leastRecentlyUsed(capacity: Int) throws {
        let connection = try connection(capacity: capacity)
        connection.resetCounters()
        for value in 0..<capacity { _ = try connection.cachedStatement("SELECT \(value)") }
        _ = try connection.cachedStatement("SELECT 0")  // now most recent
        _ = try connection.cachedStatement("SELECT 99")  // evicts the least recent
        #expect(connection.counters.cacheEvictions == 1)
        #expect(connection.statementCache.count == capacity)
        #expect(connection.statementCache.contains("SELECT 99"))
        if capacity > 1 {
            #expect(connection.statementCache.contains("SELECT 0"))
            #expect(!connection.statementCache.contains("SELECT 1"))
        } else {
            #expect(!connection.statementCache.contains("SELECT 0"))
        }
    }

    @Test("A statement whose step failed is evicted, and the next lookup prepares afresh")
    func failedStatementEvicted() throws {
        let connection = try connection(capacity: 8)
        try connection.execute("CREATE TABLE t (x UNIQUE)")
        try connection.execute("INSERT INTO t VALUES (1)")
        connection.resetCounters()
        let sql = "INSERT INTO t VALUES (?)"
        let insert = try connection.cachedStatement(sql)
        try insert.bind(Int64(1), at: 1)
        #expect(throws: SQLiteError.self) { try insert.execute() }
        #expect(!connection.statementCache.contains(sql))
        #expect(connection.counters.cacheEvictions == 1)
        let fresh = try connection.cachedStatement(sql)
        #expect(fresh !== insert)
        #expect(connection.counters.cacheMisses == 2)
        #expect(connection.counters.cacheHits == 0)
    }

    @Test("A lookup hands back a reset statement even if the last user stopped mid-way")
    func lookupResets() throws {
        let connection = try connection(capacity: 4)
        try connection.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")
        let select = try connection.cachedStatement("SELECT x FROM t ORDER BY x")
        #expect(try select.step())
        #expect(select.int64(at: 0) == 1)
        let again = try connection.cachedStatement("SELECT x FROM t ORDER BY x")
        #expect(try again.step())
        #expect(again.int64(at: 0) == 1)
    }

    @Test("Recent lookups are served by text, not by the string's storage, and never after eviction")
    func recentLookups() throws {
        let connection = try connection(capacity: 2)
        connection.resetCounters()
        let first = try connection.cachedStatement("SELECT 1")
        // The same text built afresh, and a text of the same length.
        let rebuilt = try connection.cachedStatement(["SELECT", "1"].joined(separator: " "))
        let other = try connection.cachedStatement("SELECT 2")
        #expect(rebuilt === first)
        #expect(other !== first)
        _ = try connection.cachedStatement("SELECT 3")  // evicts SELECT 1
        let afterEviction = try connection.cachedStatement("SELECT 1")
        #expect(afterEviction !== first)
        #expect(connection.counters.cacheHits == 1)
        #expect(connection.counters.cacheMisses == 4)
        #expect(connection.counters.cacheEvictions == 2)
        connection.statementCache.removeAll()
        #expect(try connection.cachedStatement("SELECT 2") !== other)
    }
}
