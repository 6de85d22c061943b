import Foundation
import FaultlineSQLite
import Synchronization

// The one write path of a store: saves, batch requests, migrations and the
// deferred clean-up all write through a `StoreWriter`.
//
// Invariants:
// 1. A writer owns one connection and one lock; `write` holds the lock for
//    the whole IMMEDIATE transaction, so writes are serialised and no other
//    thread touches the connection meanwhile. Called inside an open
//    transaction (a migration step's handlers), it nests as a savepoint.
// 2. A store that refuses writes (a Core Data store recording persistent
//    history) throws its refusal before BEGIN: nothing is read or written.
// 3. Before the transaction's body runs, a data version that differs from the
//    one this writer last saw means another connection or process committed:
//    the row cache is emptied first (ExternalCommits.swift). A remote-change
//    check asks the same question between transactions
//    (`noteCommitsElsewhere`), with the same bookkeeping.
// 4. The after-commit work — row-cache invalidation, entities whose derived
//    attributes went stale, new rows cached, other contexts told — runs once,
//    in `ChangePublisher.publish`, after COMMIT and only after it; a rolled
//    back transaction publishes nothing.
// 5. SQLite's "database is locked" past the busy timeout surfaces as
//    `StoreError.busy`, which callers match without importing FaultlineSQLite.

/// What a write transaction hands to the after-commit work.
struct CommittedChanges: Sendable {
    var changes: StoreChanges
    /// Rows the commit wrote whose values are known, for the row cache.
    var rowsToCache: [KeyedSnapshot] = []
    /// The clock when they were written, for staleness intervals.
    var readAt: UInt64 = 0
    /// The updated rows `rowsToCache` leaves out, for the row cache to drop;
    /// nil: all of `changes.updated`. The rest are replaced where they sit:
    /// dropping one first shifted the rest of its probe run back, hashing
    /// each row in it.
    var updatesNotCached: [ManagedObjectID]?

    /// The changes, moved out: read as a field, they were copied whole and
    /// the original released with the rest.
    mutating func takeChanges() -> StoreChanges {
        var taken = StoreChanges(source: changes.source)
        swap(&taken, &changes)
        return taken
    }
}

/// The writer connection of a store, its lock, and its transaction.
final class StoreWriter: Sendable {
    private let connection: LockedConnection
    /// How long a write waits for another connection's or process's write.
    let busyTimeout: TimeInterval
    /// Why every write is refused before it starts; nil when writes are allowed.
    let refusal: (any Error & Sendable)?
    /// What this writer knows of commits made elsewhere (ExternalCommits.swift).
    let commitWatch = ExternalCommitWatch()
    /// The key counters its saves last wrote (PrimaryKeyAllocator.swift).
    let keyCounters = KnownKeyCounters()
    /// Rows its saves and batch inserts wrote with the triggers off
    /// (TriggerlessInserts.swift), committed or not: a deterministic count
    /// for tests and benchmarks.
    let rowsInsertedWithoutTriggers = Atomic<Int>(0)
    /// Keys its saves reserved and have not used yet (SpareKeys.swift).
    let spareKeys = SpareKeys()
    /// The after-commit work; nil for a migration's writer, which runs before
    /// any coordinator (and so any cache or context) exists on the store.
    let publisher: ChangePublisher?
    /// The store's history recording, whose interned names another process
    /// may have deleted; nil when the store records none.
    let history: HistoryRecorder?

    init(_ connection: Connection, busyTimeout: TimeInterval, refusal: (any Error & Sendable)? = nil,
         publisher: ChangePublisher?, history: HistoryRecorder? = nil) {
        // The version the connection saw last (opening read the catalog), so
        // a commit made elsewhere before this writer's first write is noticed
        // by it (invariant 3), not taken for the starting point.
        commitWatch.writerVersion = connection.dataVersion
        self.connection = LockedConnection(connection)
        self.busyTimeout = busyTimeout
        self.refusal = refusal
        self.publisher = publisher
        self.history = history
    }

    /// A migration's writer over `connection`: nothing to publish (no
    /// coordinator has the store open yet) and no refusal; a busy error
    /// reports the connection's own timeout, the one it waited.
    convenience init(migrating connection: Connection) {
        self.init(connection, busyTimeout: TimeInterval(connection.busyTimeoutMilliseconds) / 1_000, publisher: nil)
    }

    /// Runs `body` with the connection, holding the lock, outside any
    /// transaction this writer starts: reads that must see the writer's state.
    func withConnection<Result>(_ body: (Connection) throws -> Result) throws -> Result {
        try translatingBusy { try connection.withLock(body) }
    }

    /// Runs `body` in one IMMEDIATE transaction (invariants 1–3) and, after
    /// COMMIT, publishes the changes it returns (invariant 4). With
    /// `foreignKeysOff` the outermost transaction runs with SQLite's foreign
    /// key enforcement off, as its table-rebuild procedure requires.
    /// Returns the body's result, the published changes and the SQL counters
    /// of the whole transaction, BEGIN and COMMIT included.
    @discardableResult
    func write<Result>(
        foreignKeysOff: Bool = false, _ body: (Connection) throws -> (Result, CommittedChanges?)
    ) throws -> (result: Result, changes: StoreChanges?, sql: SQLiteCounters) {
        if let refusal { throw refusal }
        var (result, committed, sql) = try withConnection { connection in
            let before = connection.counters
            let outermost = connection.isAutocommit
            if foreignKeysOff, outermost { try connection.setForeignKeys(enabled: false) }
            defer { if foreignKeysOff, outermost { try? connection.setForeignKeys(enabled: true) } }
            // Spare keys serve the outermost transaction only: a savepoint
            // rolled back inside a committed transaction would leave them
            // above the committed Z_MAX.
            spareKeys.isUsable = outermost
            defer { spareKeys.isUsable = false }
            let (result, committed): (Result, CommittedChanges?)
            do {
                (result, committed) = try connection.transaction(.immediate) {
                    if outermost { noteVersion(connection.dataVersion) }
                    return try body(connection)
                }
            } catch {
                // A reservation rolled back with the transaction left no spare keys.
                spareKeys.removeAll()
                throw error
            }
            if outermost {
                commitWatch.writerVersion = connection.dataVersion
                commitWatch.localCommits.add(1, ordering: .relaxed)
            }
            return (result, committed, connection.counters - before)
        }
        // Taken out of the optional: `guard var` copied all of it, a retain
        // and a release of each of its lists every save.
        guard let publisher, var published = committed.take() else { return (result, committed.take()?.changes, sql) }
        publisher.publish(
            &published.changes, caching: published.rowsToCache, readAt: published.readAt, droppingUpdates: published.updatesNotCached)
        return (result, published.takeChanges(), sql)
    }

    /// Takes note of the writer connection's data version, as its current
    /// transaction (or the statement just run) saw it; under the writer lock.
    /// A version that differs from the one last noted is a commit made
    /// elsewhere: nothing cached from before it is trusted (invariant 3).
    private func noteVersion(_ version: UInt32?) {
        if let known = commitWatch.writerVersion, let version, version != known {
            publisher?.dropRowsChangedElsewhere()
            history?.forgetNames()
            spareKeys.removeAll()
            commitWatch.externalCommits.add(1, ordering: .relaxed)
        }
        commitWatch.writerVersion = version
    }

    /// Asks the writer connection, between transactions, whether another
    /// connection or process committed since it last looked: one statement
    /// (`PRAGMA data_version`, whose read transaction brings the connection's
    /// data version up to date), then the bookkeeping a write transaction's
    /// start does (`noteVersion`), so the next write does not notice the same
    /// commit again. Returns the writer's count of commits noticed elsewhere
    /// and of its own commits, both read under the lock. Should a transaction
    /// be open on the connection, whose start noted the version, it runs
    /// nothing and only returns the counts.
    func noteCommitsElsewhere() throws -> (external: Int, local: Int) {
        try withConnection { connection in
            if connection.isAutocommit {
                _ = try connection.currentDataVersion()
                noteVersion(connection.dataVersion)
            }
            return (commitWatch.externalCommits.load(ordering: .relaxed), commitWatch.localCommits.load(ordering: .relaxed))
        }
    }

    func translatingBusy<Result>(_ body: () throws -> Result) throws -> Result {
        do { return try body() } catch let error as SQLiteError where error.code == .busy {
            throw StoreError.busy(timeout: busyTimeout)
        }
    }

    var counters: SQLiteCounters { connection.withLock { $0.counters } }
    func resetCounters() { connection.withLock { $0.resetCounters() } }
}

/// The writer connection behind a pthread mutex (`NSLock`). Not
/// `Synchronization.Mutex`: under contention its futex slow path hides the
/// happens-before edge from ThreadSanitizer, which then reports every access to
/// the connection as a race (reproduced with a ten-line program).
private final class LockedConnection: @unchecked Sendable {
    private let lock = NSLock()
    private let connection: Connection

    init(_ connection: Connection) { self.connection = connection }

    func withLock<Result>(_ body: (Connection) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }
}
