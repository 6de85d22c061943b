/// Prepared statements keyed by their SQL text, bounded, least recently used
/// out first.
///
/// Invariants:
/// 1. At most `capacity` statements are held; inserting past that evicts the
///    least recently used one.
/// 2. A statement whose step failed is evicted at once (its SQL may be invalid
///    against a changed schema, and SQLite's own re-preparation failed).
/// 3. Every lookup counts as exactly one hit or one miss.
///
/// Lookups hash the SQL text: a hot loop fetches its statement once and reuses it.
public final class StatementCache {
    /// A class, so a hit stamps its use in place: writing a struct value
    /// back through the dictionary's `modify` accessor costs a hash and, in
    /// this specialisation, a heap-allocated coroutine frame per lookup.
    private final class Entry {
        let statement: Statement
        var lastUse: UInt64
        init(statement: Statement, lastUse: UInt64) {
            self.statement = statement
            self.lastUse = lastUse
        }
    }

    /// The most statements held at once.
    public let capacity: Int
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    private let connection: OpaquePointer
    private let counters: ConnectionCounters

    init(connection: OpaquePointer, capacity: Int, counters: ConnectionCounters) {
        self.connection = connection
        self.capacity = max(1, capacity)
        self.counters = counters
    }

    /// Number of statements currently held.
    public var count: Int { entries.count }

    /// Whether a prepared statement for `sql` is held.
    public func contains(_ sql: String) -> Bool { entries[sql] != nil }

    /// The prepared statement for `sql`, prepared (persistently) on a miss.
    /// A statement returned here must be finished (stepped to the end or reset)
    /// before it is looked up again. O(1) on a hit; O(capacity) when evicting.
    public func statement(for sql: String) throws -> Statement {
        clock &+= 1
        if let entry = entries[sql] {
            entry.lastUse = clock
            counters.value.cacheHits += 1
            ProcessCounters.shared.addCacheHit()
            entry.statement.reset()
            return entry.statement
        }
        counters.value.cacheMisses += 1
        ProcessCounters.shared.addCacheMiss()
        let statement = try Statement(connection: connection, sql: sql, persistent: true, counters: counters)
        if entries.count >= capacity { evictLeastRecentlyUsed() }
        statement.cache = self
        entries[sql] = Entry(statement: statement, lastUse: clock)
        return statement
    }

    /// Drops every statement (e.g. before closing or after a schema change).
    public func removeAll() {
        entries.removeAll()
    }

    func evict(_ statement: Statement) {
        guard let entry = entries[statement.sql], entry.statement === statement else { return }
        entries[statement.sql] = nil
        statement.cache = nil
        countEviction()
    }

    private func evictLeastRecentlyUsed() {
        guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
        entries[oldest.key] = nil
        oldest.value.statement.cache = nil
        countEviction()
    }

    private func countEviction() {
        counters.value.cacheEvictions += 1
        ProcessCounters.shared.addEviction()
    }
}
