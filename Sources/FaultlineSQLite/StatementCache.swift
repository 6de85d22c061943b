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
/// Lookups hash the SQL text, except repeats of the recent ones: a hot loop
/// fetches its statement once and reuses it.
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
    // A cache belongs to one connection, which one thread uses at a time:
    // the fields skip the dynamic exclusivity check every lookup paid.
    @exclusivity(unchecked) private var entries: [String: Entry] = [:]
    /// The statements looked up last, checked before hashing. A save and a
    /// fault fired alone ask for the texts they asked for before, as the
    /// same string values: comparing one is a length and a pointer test,
    /// where hashing walked the whole text (1,500 instructions a lookup,
    /// callgrind of `fetch.byKey`).
    @exclusivity(unchecked) private var recent: [(sql: String, entry: Entry)] = []
    @exclusivity(unchecked) private var nextRecent = 0
    private static let recentCapacity = 8
    @exclusivity(unchecked) private var clock: UInt64 = 0
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
        let length = sql.utf8.count
        for index in recent.indices where recent[index].sql.utf8.count == length && recent[index].sql == sql {
            return hit(recent[index].entry)
        }
        if let entry = entries[sql] {
            remember(sql, entry)
            return hit(entry)
        }
        counters.value.cacheMisses += 1
        ProcessCounters.shared.addCacheMiss()
        let statement = try Statement(connection: connection, sql: sql, persistent: true, counters: counters)
        if entries.count >= capacity { evictLeastRecentlyUsed() }
        statement.cache = self
        let entry = Entry(statement: statement, lastUse: clock)
        entries[sql] = entry
        remember(sql, entry)
        return statement
    }

    private func remember(_ sql: String, _ entry: Entry) {
        if recent.count < Self.recentCapacity {
            recent.append((sql, entry))
        } else {
            recent[nextRecent] = (sql, entry)
            nextRecent = (nextRecent + 1) % Self.recentCapacity
        }
    }

    private func forget(_ entry: Entry) {
        guard let index = recent.firstIndex(where: { $0.entry === entry }) else { return }
        recent.remove(at: index)
        nextRecent = 0
    }

    private func hit(_ entry: Entry) -> Statement {
        entry.lastUse = clock
        counters.value.cacheHits += 1
        ProcessCounters.shared.addCacheHit()
        entry.statement.reset()
        return entry.statement
    }

    /// Drops every statement (e.g. before closing or after a schema change).
    public func removeAll() {
        entries.removeAll()
        recent.removeAll()
        nextRecent = 0
    }

    func evict(_ statement: Statement) {
        guard let entry = entries[statement.sql], entry.statement === statement else { return }
        entries[statement.sql] = nil
        forget(entry)
        statement.cache = nil
        countEviction()
    }

    private func evictLeastRecentlyUsed() {
        guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
        entries[oldest.key] = nil
        forget(oldest.value)
        oldest.value.statement.cache = nil
        countEviction()
    }

    private func countEviction() {
        counters.value.cacheEvictions += 1
        ProcessCounters.shared.addEviction()
    }
}
