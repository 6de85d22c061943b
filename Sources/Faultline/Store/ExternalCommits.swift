import FaultlineSQLite
import Synchronization

// Commits made by other connections and processes, noticed without SQL.
//
// The row cache serves snapshots of committed rows; a commit this coordinator
// did not make (another process, another coordinator on the same file) may
// have changed any of them. SQLite's data version (`Connection.dataVersion`,
// the file control behind `PRAGMA data_version`) changes with every commit
// any connection makes, as seen when a transaction starts.
//
// Invariants:
// 1. The writer's last known version is recorded under the writer lock, after
//    each of this coordinator's commits and at the start of each write
//    transaction; a difference at the start of the next write transaction is
//    a commit by someone else: the whole row cache goes (it cannot know which
//    rows), before the transaction reads or checks anything.
// 2. A reader compares its version after each read with its previous one. A
//    change with no commit of this coordinator in between is someone else's:
//    the row cache goes. With a local commit in between it cannot tell, and
//    leaves it to the next write transaction (1).
// 3. A save that fails on optimistic locking drops the conflicting rows from
//    the row cache: the conflict proves the cached snapshot old, so a retry
//    after `refresh(_:mergeChanges: false)` reads the store.

/// What this coordinator knows of the store's data version.
final class ExternalCommitWatch: @unchecked Sendable {
    /// The writer connection's version; read and written under the writer lock only.
    var writerVersion: UInt32?
    /// This coordinator's commits so far.
    let localCommits = Atomic<Int>(0)
    /// How many times commits by others emptied the row cache.
    let externalCommitsSeen = Atomic<Int>(0)
}

extension PersistentStoreCoordinator {
    /// Runs `body` in one IMMEDIATE transaction on the writer — the one write
    /// path of saves and batch requests — after dropping the row cache if
    /// someone else committed since this coordinator last wrote (invariant 1).
    /// Returns the SQL counters of the whole transaction, BEGIN and COMMIT included.
    func writeTransaction<Result: Sendable>(
        _ body: (Connection) throws -> Result
    ) throws -> (result: Result, sql: SQLiteCounters) {
        try withWriter { connection in
            let before = connection.counters
            let result = try connection.transaction(.immediate) {
                noteWriterVersion(connection.dataVersion)
                return try body(connection)
            }
            commitWatch.writerVersion = connection.dataVersion
            commitWatch.localCommits.add(1, ordering: .relaxed)
            return (result, connection.counters - before)
        }
    }

    private func noteWriterVersion(_ version: UInt32?) {
        if let known = commitWatch.writerVersion, let version, version != known { dropRowsChangedElsewhere() }
        commitWatch.writerVersion = version
    }

    /// After a read on `box` (invariant 2).
    func noteReaderVersion(of box: ConnectionBox, localCommitsBefore: Int) {
        let version = box.connection.dataVersion
        let localCommits = commitWatch.localCommits.load(ordering: .relaxed)
        if let known = box.dataVersion, let version, version != known,
           box.localCommits == localCommitsBefore, localCommits == localCommitsBefore {
            dropRowsChangedElsewhere()
        }
        box.dataVersion = version
        box.localCommits = localCommits
    }

    private func dropRowsChangedElsewhere() {
        commitWatch.externalCommitsSeen.add(1, ordering: .relaxed)
        rowCache.removeAll()
    }

    /// How many times this coordinator noticed commits made elsewhere (another
    /// process or coordinator) and emptied its row cache.
    public var externalCommitsNoticed: Int { commitWatch.externalCommitsSeen.load(ordering: .relaxed) }
}
