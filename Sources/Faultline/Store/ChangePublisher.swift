import Synchronization

// The after-commit work of a store, in one place: every commit of a save or a
// batch request reaches `publish`, and nothing else invalidates the row cache
// for a local commit or tells the contexts.
//
// Invariants:
// 1. Rows the commit updated or deleted leave the row cache; so does every
//    row of an entity whose derived attributes read a touched entity (the
//    triggers may have rewritten any of them), unless the commit read back
//    every row of it the triggers could have rewritten (RereadDependents).
// 2. Rows whose values the commit knows enter the cache, except those of
//    stale entities, whose derived values only the store has.
// 3. Subscribers are held weakly and told in registration order, the
//    committer itself excepted, only when the commit changed something.

/// Publishes a store's commits: the row cache first, then the subscribers.
final class ChangePublisher: Sendable {
    let rowCache: RowCache
    /// For each entity, the entities whose derived attributes read its rows.
    let derivedDependents: [Set<Int>]

    private struct WeakSubscriber: @unchecked Sendable {
        weak var subscriber: (any StoreChangeSubscriber)?
    }

    private let subscribers = Locked<[WeakSubscriber]>([])

    init(rowCache: RowCache, derivedDependents: [Set<Int>]) {
        self.rowCache = rowCache
        self.derivedDependents = derivedDependents
    }

    func subscribe(_ subscriber: any StoreChangeSubscriber) {
        subscribers.withLock { list in
            list.removeAll { $0.subscriber == nil }
            list.append(WeakSubscriber(subscriber: subscriber))
        }
    }

    /// The after-commit work (invariants 1–3); fills `changes.staleEntities`.
    /// `readAt`: the clock when `rows` were written.
    /// `droppingUpdates`: the updated rows `rows` does not hold (nil: every
    /// one of `changes.updated`).
    func publish(
        _ changes: inout StoreChanges, caching rows: [KeyedSnapshot], readAt: UInt64,
        droppingUpdates: [ManagedObjectID]? = nil
    ) {
        if let transaction = changes.historyTransaction, changes.source != remoteSource,
           tracksLocalTransactions.load(ordering: .relaxed) {
            localTransactions.withLock { local in
                local.insert(transaction)
                // Bounded: a check that never comes again must not grow it forever.
                if local.count > Self.localTransactionLimit { local = local.filter { $0 > transaction - Int64(Self.localTransactionLimit) } }
            }
        }
        rowCache.invalidate(droppingUpdates ?? changes.updated)
        rowCache.invalidate(changes.deleted)
        var stale = staleEntities(deriving: changes.touchedEntities.setIndices)
        if !stale.isEmpty, !changes.rereadDependents.isEmpty { stale = stale.filter { !changes.rereadDependents[$0] } }
        rowCache.invalidate(entities: stale)
        changes.staleEntities = stale
        rowCache.store(stale.isEmpty ? rows : rows.filter { !stale.contains($0.id.entityIndex) }, readAt: readAt)
        guard !changes.isEmpty else { return }
        // Gathered under the lock, told outside it; no list is built when the
        // committing context is the only one (a list per save, otherwise).
        let source = changes.source
        let targets = subscribers.withLock { list -> [any StoreChangeSubscriber] in
            guard list.contains(where: { entry in entry.subscriber.map { ObjectIdentifier($0) != source } ?? false }) else { return [] }
            return list.compactMap(\.subscriber)
        }
        for target in targets where ObjectIdentifier(target) != source { target.storeDidCommit(changes) }
    }

    /// The entities whose derived attributes read rows of `touched` ones.
    func staleEntities(deriving touched: some Sequence<Int>) -> Set<Int> {
        var stale = Set<Int>()
        for entity in touched { stale.formUnion(derivedDependents[entity]) }
        return stale
    }

    /// Another connection or process committed: no cached row can be trusted.
    func dropRowsChangedElsewhere() {
        externalCommitsSeen.add(1, ordering: .relaxed)
        rowCache.removeAll()
    }

    /// How many times commits made elsewhere emptied the row cache.
    let externalCommitsSeen = Atomic<Int>(0)

    /// The source of changes read from another process's history: told to
    /// every context, and never counted as this store's own.
    let remoteSource = ObjectIdentifier(RemoteSourceMarker.self)
    private enum RemoteSourceMarker {}

    /// History transactions this store's own commits recorded and no remote
    /// check has passed yet: what a check of the history skips. Kept only
    /// once a check has run (`tracksLocalTransactions`), and at most the
    /// latest `localTransactionLimit`.
    private let localTransactions = Locked<Set<Int64>>([])
    let tracksLocalTransactions = Atomic<Bool>(false)
    static let localTransactionLimit = 65_536

    /// Takes the local transactions at or below `through` out of the set and
    /// returns them.
    func takeLocalTransactions(through: Int64) -> Set<Int64> {
        localTransactions.withLock { local in
            let taken = local.filter { $0 <= through }
            local.subtract(taken)
            return taken
        }
    }
}
