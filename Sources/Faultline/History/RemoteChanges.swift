import Foundation
import FaultlineSQLite

// Commits made by other processes (or other coordinators on the same file),
// told to this coordinator's row cache and contexts, and every commit —
// this coordinator's own included, as Core Data's `NSPersistentStoreRemoteChange`
// is posted for a coordinator's own saves too — announced.
//
// Invariants:
// 1. A check costs one statement when nothing changed: `PRAGMA data_version`
//    on the observer's own read-only connection, which moves with every
//    commit any other connection makes — this coordinator's writer included.
//    (A store without history first asks the catalog whether history tables
//    appeared: one statement more.)
// 2. With persistent history, a changed version reads the transactions after
//    the last one checked. Each is announced with its token and transaction,
//    one `persistentStoreRemoteChange` notification per transaction, in commit
//    order, this coordinator's own among the others. Those this coordinator's
//    own commits recorded are not published again (ChangePublisher keeps their
//    keys until a check passes them; their commit published them). Each other
//    transaction is published like a local commit before it is announced — its
//    updated and deleted rows leave the row cache, every context hears of it
//    (those that merge automatically merge it). History deleted before the
//    check read it is announced by one notification without a token or a
//    transaction; the row cache goes unless every transaction it skipped was
//    this coordinator's own.
// 3. Without history it cannot tell which rows or how many commits, and the
//    observer's version cannot tell whose: the writer can. The first check,
//    and each whose version moved, asks the writer connection under the
//    writer lock whether its data version moved since it last looked — one
//    statement more, on the writer (StoreWriter.noteCommitsElsewhere). The
//    writer counts each such move once, whether a check or the start of one
//    of its write transactions finds it, and empties the row cache then
//    (ExternalCommits.swift); the same answer, read under the same lock,
//    gives the writer's count of its own commits (`localCommits`). One
//    notification without a token is posted when either count moved since
//    the last check, however many commits it covers: commits made elsewhere
//    before, between or after this coordinator's own, and this coordinator's
//    own alone. Only commits made elsewhere empty the row cache (the writer's
//    noticing them does); an own commit's announcement leaves it. Each commit
//    is announced by one check: the first whose question to the writer
//    follows it. A store whose history tables went has no count from before:
//    its change is announced and the row cache goes.
// 4. Checks run one at a time (the observer's lock): on demand
//    (`checkForRemoteChanges()`) or every interval once
//    `startObservingRemoteChanges` is called; the timer holds the coordinator
//    weakly and stops when the coordinator goes.

extension Notification.Name {
    /// Posted by a coordinator's check (`checkForRemoteChanges()`) for each
    /// commit to its store since the last check — another process's, another
    /// coordinator's on the same file, and this coordinator's own, as Core
    /// Data's `NSPersistentStoreRemoteChange` is (filter by the transaction's
    /// `author` to skip your own); with persistent history one per transaction
    /// with its token, in commit order, without it one tokenless notification
    /// for all. `object` is the coordinator and `userInfo` holds a
    /// `PersistentStoreRemoteChange` under its `userInfoKey`.
    public static let persistentStoreRemoteChange = Notification.Name("FaultlinePersistentStoreRemoteChange")
}

/// The payload of `persistentStoreRemoteChange`.
public struct PersistentStoreRemoteChange: Sendable {
    public static let userInfoKey = "change"
    /// The store's UUID.
    public let storeUUID: String
    /// The token of the announced transaction (Core Data's
    /// `NSPersistentHistoryTokenKey`); nil for a store without history, or
    /// when the history was deleted before the check read it.
    public let historyToken: PersistentHistoryToken?
    /// The transaction itself, with its changes; nil when the token is.
    public let transaction: PersistentHistoryTransaction?
}

/// A coordinator's watch on the store file (kept with the coordinator, see
/// `attachment(_:make:)`).
final class RemoteChangeObserver: @unchecked Sendable {
    private let lock = NSLock()
    private var connection: Connection?
    private var lastVersion: Int64?
    /// The key of the last history transaction checked.
    private var lastTransaction: Int64?
    /// The writer's count of commits noticed elsewhere at the last check of a
    /// store without history (invariant 3); nil before the first.
    private var externalCommits: Int?
    /// The writer's count of its own commits at the same check.
    private var localCommits: Int?
    private var timer: DispatchSourceTimer?

    deinit { timer?.cancel() }

    /// One check (invariants 1–3); returns the notifications to post, posted
    /// by the caller once the lock is released.
    fileprivate func check(_ coordinator: PersistentStoreCoordinator) throws -> [PersistentStoreRemoteChange] {
        lock.lock()
        defer { lock.unlock() }
        guard case .file(let url) = coordinator.location else { return [] }
        if connection == nil {
            var configuration = Connection.Configuration()
            configuration.readOnly = true
            configuration.busyTimeoutMilliseconds = Int32(clamping: Int(coordinator.busyTimeout * 1_000))
            connection = try Connection(.file(url.path), configuration: configuration)
        }
        guard let connection else { return [] }
        if lastTransaction == nil, try HistoryStatements.layout(on: connection) != nil {
            // Tracked before the read, so no local commit falls between them.
            coordinator.changes.tracksLocalTransactions.store(true, ordering: .relaxed)
            let latest = try HistoryStatements.latestTransaction(on: connection)
            _ = coordinator.changes.takeLocalTransactions(through: latest)
            lastTransaction = latest
        }
        guard let version = try connection.currentDataVersion() else { return [] }
        let previous = lastVersion
        lastVersion = version
        guard previous != version else { return [] }
        // Without history when the block above found no tables, or when they went.
        let historyWent = try previous != nil && lastTransaction != nil && HistoryStatements.layout(on: connection) == nil
        guard let after = lastTransaction, !historyWent else {
            // The writer's answer may fail (busy): the next check asks again.
            do { return try changesWithoutHistory(coordinator, first: previous == nil) } catch {
                lastVersion = previous
                throw error
            }
        }
        guard previous != nil else { return [] }
        // History this check had not read was deleted: unless every skipped
        // transaction was this coordinator's own, what another process changed
        // is unknown, so the change is announced without a transaction.
        if try HistoryStatements.transactionsDeleted(after: after, on: connection) {
            let latest = try HistoryStatements.latestTransaction(on: connection)
            lastTransaction = latest
            let local = coordinator.changes.takeLocalTransactions(through: latest)
            if !(after + 1...max(after + 1, latest)).allSatisfy(local.contains) { coordinator.changes.dropRowsChangedElsewhere() }
            return [PersistentStoreRemoteChange(storeUUID: coordinator.storeUUID, historyToken: nil, transaction: nil)]
        }
        let transactions = try coordinator.historyTransactions(afterKey: after, on: connection)
        guard let newest = transactions.last?.transactionNumber else { return [] }
        lastTransaction = newest
        let local = coordinator.changes.takeLocalTransactions(through: newest)
        var announced: [PersistentStoreRemoteChange] = []
        for transaction in transactions {
            // This coordinator's own commit was published when it committed:
            // only announced (Core Data announces a coordinator's own saves).
            if !local.contains(transaction.transactionNumber) {
                var changes = coordinator.storeChanges(of: transaction)
                coordinator.changes.publish(&changes, caching: [], readAt: 0)
            }
            announced.append(PersistentStoreRemoteChange(
                storeUUID: coordinator.storeUUID, historyToken: transaction.token, transaction: transaction))
        }
        return announced
    }

    /// A changed version of a store without history (invariant 3): the writer
    /// says whether commits were made elsewhere, and how many of its own it
    /// made, since the last check. The first check only takes the counts.
    private func changesWithoutHistory(_ coordinator: PersistentStoreCoordinator, first: Bool) throws -> [PersistentStoreRemoteChange] {
        let noticed = try coordinator.writer.noteCommitsElsewhere()
        let before = externalCommits, localBefore = localCommits
        externalCommits = noticed.external
        localCommits = noticed.local
        if first { return [] }
        if before == nil { coordinator.changes.dropRowsChangedElsewhere() }
        guard before != noticed.external || localBefore != noticed.local else { return [] }
        return [PersistentStoreRemoteChange(storeUUID: coordinator.storeUUID, historyToken: nil, transaction: nil)]
    }

    fileprivate func start(_ coordinator: PersistentStoreCoordinator, interval: TimeInterval) {
        lock.lock()
        defer { lock.unlock() }
        timer?.cancel()
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "faultline.remote-changes"))
        let nanoseconds = Int(max(interval, 0.001) * 1_000_000_000)
        source.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        source.setEventHandler { [weak coordinator] in _ = try? coordinator?.checkForRemoteChanges() }
        timer = source
        source.resume()
    }

    fileprivate func stop() {
        lock.lock()
        defer { lock.unlock() }
        timer?.cancel()
        timer = nil
    }
}

extension PersistentStoreCoordinator {
    private var remoteChanges: RemoteChangeObserver { attachment(RemoteChangeObserver.self) { RemoteChangeObserver() } }

    /// Looks for commits made since the last look (one statement when there
    /// are none) and posts `persistentStoreRemoteChange` for each, this
    /// coordinator's own included (Core Data posts it for a coordinator's own
    /// saves too): with persistent history one per transaction, in commit
    /// order, with its token; for a store without history one for all of them,
    /// tokenless. Commits other processes or coordinators made are published
    /// first — their rows leave the row cache (all rows, without history) and
    /// the contexts hear of them; this coordinator's own, published when they
    /// committed, are only announced. Returns how many notifications were
    /// posted. The first call only takes note of where the store is.
    @discardableResult
    public func checkForRemoteChanges() throws -> Int {
        let found = try remoteChanges.check(self)
        for change in found {
            NotificationCenter.default.post(
                name: .persistentStoreRemoteChange, object: self, userInfo: [PersistentStoreRemoteChange.userInfoKey: change])
        }
        return found.count
    }

    /// Checks for remote changes every `interval` seconds until stopped or
    /// until the coordinator goes (Core Data posts its notification when
    /// the store file changes, by any process or coordinator; a poll is
    /// Linux's stand-in for its file watch).
    public func startObservingRemoteChanges(every interval: TimeInterval = 0.25) {
        _ = try? remoteChanges.check(self)
        remoteChanges.start(self, interval: interval)
    }

    public func stopObservingRemoteChanges() { remoteChanges.stop() }

    /// A history transaction as a commit's published changes, told to every context.
    func storeChanges(of transaction: PersistentHistoryTransaction) -> StoreChanges {
        var changes = StoreChanges(source: self.changes.remoteSource)
        for change in transaction.changes where change.changedObjectID.storeIdentifier == identifier {
            switch change.changeType {
            case .insert: changes.inserted.append(change.changedObjectID)
            case .update: changes.updated.append(change.changedObjectID)
            case .delete: changes.deleted.insert(change.changedObjectID)
            }
            changes.touch(change.changedObjectID.entityIndex)
        }
        changes.historyTransaction = transaction.transactionNumber
        return changes
    }
}
