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
//    each of its commits, at the start of each write transaction and when a
//    remote-change check asks the writer (StoreWriter.swift); a difference at
//    the start of the next write transaction, or at such a check, is a commit
//    by someone else: the whole row cache goes (it cannot know which rows),
//    before the transaction reads or checks anything, and `externalCommits`
//    counts it — once, since the version is then recorded. A check of a store
//    without history announces commits from that count and from
//    `localCommits` (RemoteChanges.swift).
// 2. A reader compares its version after each read with its previous one. A
//    change with no commit of this coordinator in between is someone else's:
//    the row cache goes. With a local commit in between it cannot tell, and
//    leaves it to the next write transaction (1).
// 3. A save that fails on optimistic locking drops the conflicting rows from
//    the row cache: the conflict proves the cached snapshot old, so a retry
//    after `refresh(_:mergeChanges: false)` reads the store.

/// What a writer knows of the store's data version.
final class ExternalCommitWatch: @unchecked Sendable {
    /// The writer connection's version; read and written under the writer lock only.
    var writerVersion: UInt32?
    /// This writer's commits so far.
    let localCommits = Atomic<Int>(0)
    /// How many times this writer found the version moved by commits made
    /// elsewhere (each time one or more commits); written under the writer lock.
    let externalCommits = Atomic<Int>(0)
}

extension PersistentStoreCoordinator {
    /// After a read on `box` (invariant 2).
    func noteReaderVersion(of box: ConnectionBox, localCommitsBefore: Int) {
        let version = box.connection.dataVersion
        let localCommits = writer.commitWatch.localCommits.load(ordering: .relaxed)
        if let known = box.dataVersion, let version, version != known,
           box.localCommits == localCommitsBefore, localCommits == localCommitsBefore {
            changes.dropRowsChangedElsewhere()
        }
        box.dataVersion = version
        box.localCommits = localCommits
    }

    /// How many times this coordinator noticed commits made elsewhere (another
    /// process or coordinator) and emptied its row cache.
    public var externalCommitsNoticed: Int { changes.externalCommitsSeen.load(ordering: .relaxed) }
}
