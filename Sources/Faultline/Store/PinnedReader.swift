import Dispatch
import FaultlineSQLite
import FaultlineSupport
import Synchronization

/// A read transaction held open on a connection of its own: the store as it
/// was when the transaction began (a WAL read snapshot), for contexts pinned
/// to that query generation.
///
/// Design note. Debian's SQLite is built without `sqlite3_snapshot_*`, so a
/// generation cannot be reopened later on another connection: it lives
/// exactly as long as this transaction, on this connection. Contexts sharing
/// a generation share the connection, one read at a time. A pinned context's
/// queue carries its reader (`key`), so every read the coordinator makes on
/// that queue — fetches, faults, relationship loads, prefetches — goes
/// through it without a parameter on each call.
final class PinnedReader: @unchecked Sendable {
    static let key = DispatchSpecificKey<PinnedReader>()

    /// The coordinator whose store it reads.
    let coordinator: ObjectIdentifier
    private let connection: Locked<Connection>
    /// Tells generations apart (`QueryGenerationToken` equality).
    let number: UInt64
    private static let numbers = Locked<UInt64>(0)
    /// Readers alive in the process. While there are none, no queue can
    /// carry one, and `current` skips the queue-specific lookup every read
    /// and every fault fired alone otherwise paid (~190 instructions).
    private static let live = Atomic<Int>(0)

    init(coordinator: PersistentStoreCoordinator) throws {
        self.coordinator = ObjectIdentifier(coordinator)
        let connection = try PersistentStoreCoordinator.open(
            coordinator.location, busyTimeout: coordinator.busyTimeout, readOnly: coordinator.opensReadOnly)
        try connection.beginReadSnapshot()
        connection.resetCounters()
        self.connection = Locked(connection)
        number = Self.numbers.withLock { number in
            number += 1
            return number
        }
        // Before any queue can carry it: whoever sets it on a queue does so after.
        Self.live.add(1, ordering: .releasing)
    }

    deinit {
        connection.withLock { $0.endReadSnapshot() }
        Self.live.subtract(1, ordering: .releasing)
    }

    func withConnection<Result>(_ body: (Connection) throws -> Result) rethrows -> Result {
        try connection.withLock { try body($0) }
    }

    var counters: SQLiteCounters { connection.withLock { $0.counters } }

    /// The reader pinned on the current queue for `coordinator`, if any.
    static func current(for coordinator: PersistentStoreCoordinator) -> PinnedReader? {
        guard live.load(ordering: .acquiring) > 0, let pinned = DispatchQueue.getSpecific(key: key),
              pinned.coordinator == ObjectIdentifier(coordinator) else { return nil }
        return pinned
    }
}
