import Synchronization

/// Deterministic work counters for SQLite: what a statement-count test asserts
/// and what the benchmark harness records beside every timing.
///
/// Each `Connection` keeps its own (resettable) counters; every connection also
/// adds into the process-wide totals (`SQLiteCounters.processTotals()`), which is
/// what the harness reads, since benchmarks open and close their own connections.
public struct SQLiteCounters: Hashable, Sendable, Codable {
    /// Statements compiled with `sqlite3_prepare_v3`.
    public var statementsPrepared = 0
    /// Executions started: the first `sqlite3_step` after a prepare or reset.
    public var statementsExecuted = 0
    /// `SQLITE_ROW` results returned to the caller.
    public var rowsReturned = 0
    /// Virtual machine steps (`SQLITE_STMTSTATUS_VM_STEP`), summed per execution.
    public var vmSteps = 0
    /// Statement-cache lookups answered with an already prepared statement.
    public var cacheHits = 0
    /// Statement-cache lookups that had to prepare.
    public var cacheMisses = 0
    /// Statements dropped by the statement cache (capacity, or a failed step).
    public var cacheEvictions = 0

    public init() {}

    /// Counter names in report order, with their values.
    public var named: [(name: String, value: Int)] {
        [
            ("statementsPrepared", statementsPrepared),
            ("statementsExecuted", statementsExecuted),
            ("rowsReturned", rowsReturned),
            ("vmSteps", vmSteps),
            ("cacheHits", cacheHits),
            ("cacheMisses", cacheMisses),
            ("cacheEvictions", cacheEvictions),
        ]
    }

    /// The work done between two snapshots.
    public static func - (after: SQLiteCounters, before: SQLiteCounters) -> SQLiteCounters {
        var delta = SQLiteCounters()
        delta.statementsPrepared = after.statementsPrepared - before.statementsPrepared
        delta.statementsExecuted = after.statementsExecuted - before.statementsExecuted
        delta.rowsReturned = after.rowsReturned - before.rowsReturned
        delta.vmSteps = after.vmSteps - before.vmSteps
        delta.cacheHits = after.cacheHits - before.cacheHits
        delta.cacheMisses = after.cacheMisses - before.cacheMisses
        delta.cacheEvictions = after.cacheEvictions - before.cacheEvictions
        return delta
    }

    /// A snapshot of the totals of every connection in this process, including
    /// work recorded with `recordExternalWork(_:)`.
    public static func processTotals() -> SQLiteCounters { ProcessCounters.shared.snapshot() }

    /// Adds work done on SQLite outside `FaultlineSQLite` — the raw C reference
    /// loops — so that reports count both sides the same way.
    public static func recordExternalWork(_ work: SQLiteCounters) { ProcessCounters.shared.add(work) }
}

/// Process-wide totals, updated with relaxed atomic adds once per statement
/// execution (not per row) so the cost stays off the per-row path.
final class ProcessCounters: Sendable {
    static let shared = ProcessCounters()

    private let prepared = Atomic<Int>(0)
    private let executed = Atomic<Int>(0)
    private let rows = Atomic<Int>(0)
    private let steps = Atomic<Int>(0)
    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    private let evictions = Atomic<Int>(0)

    func add(_ work: SQLiteCounters) {
        addIfNonZero(prepared, work.statementsPrepared)
        addIfNonZero(executed, work.statementsExecuted)
        addIfNonZero(rows, work.rowsReturned)
        addIfNonZero(steps, work.vmSteps)
        addIfNonZero(hits, work.cacheHits)
        addIfNonZero(misses, work.cacheMisses)
        addIfNonZero(evictions, work.cacheEvictions)
    }

    func addPrepared() { prepared.wrappingAdd(1, ordering: .relaxed) }
    func addCacheHit() { hits.wrappingAdd(1, ordering: .relaxed) }
    func addCacheMiss() { misses.wrappingAdd(1, ordering: .relaxed) }
    func addEviction() { evictions.wrappingAdd(1, ordering: .relaxed) }

    func addExecution(rows rowCount: Int, vmSteps stepCount: Int) {
        executed.wrappingAdd(1, ordering: .relaxed)
        addIfNonZero(rows, rowCount)
        addIfNonZero(steps, stepCount)
    }

    func snapshot() -> SQLiteCounters {
        var counters = SQLiteCounters()
        counters.statementsPrepared = prepared.load(ordering: .relaxed)
        counters.statementsExecuted = executed.load(ordering: .relaxed)
        counters.rowsReturned = rows.load(ordering: .relaxed)
        counters.vmSteps = steps.load(ordering: .relaxed)
        counters.cacheHits = hits.load(ordering: .relaxed)
        counters.cacheMisses = misses.load(ordering: .relaxed)
        counters.cacheEvictions = evictions.load(ordering: .relaxed)
        return counters
    }

    private func addIfNonZero(_ atomic: borrowing Atomic<Int>, _ value: Int) {
        if value != 0 { atomic.wrappingAdd(value, ordering: .relaxed) }
    }
}

/// A connection's own counters, shared by reference with its statements.
/// A connection and its statements are used from one thread at a time, so these
/// are plain stores; exclusivity checks are off because they sit on the per-row path.
final class ConnectionCounters {
    @exclusivity(unchecked) var value = SQLiteCounters()
}
