/// What one commit changed, by object ID: what a store publishes after every
/// commit (a save, a batch request), what its row cache drops and what the
/// other contexts on it merge.
///
/// Built by the synthesized memberwise initializer, `source` first: an
/// explicit one left `self` in memory, and this compiler then copied the whole
/// value on the way out (a retain and a release of every list, every save).
struct StoreChanges: Sendable {
    /// Who committed: a context (its own changes are not sent back to it) or
    /// the coordinator (batch requests, which every context hears of).
    let source: ObjectIdentifier
    /// Lists, not sets: a save's inserts and updates are distinct already, and
    /// hashing each object into a set the merges only ever iterate was a cost
    /// per object (and a set's storage, allocated through the standard
    /// library's unspecialised code, a fixed cost per save). Readers that need
    /// a set build one (an ID listed twice by a caller of
    /// `mergeChanges(fromRemoteContextSave:)`, or updated by two history
    /// transactions, counts once there; merging it twice refreshes the object
    /// twice, to the same state).
    var inserted: [ManagedObjectID] = []
    var updated: [ManagedObjectID] = []
    var deleted: Set<ManagedObjectID> = []
    /// Which entities the commit wrote rows of, by entity index: publishing
    /// turns them into `staleEntities`. Bits, not an array of flags sized to
    /// the model: that array was one more allocation on every save.
    var touchedEntities = ChangeMask()
    /// Entities whose rows store triggers may have rewritten (derived
    /// attributes reading the touched ones); set when published.
    var staleEntities: Set<Int> = []
    /// Dependents of the touched entities whose rows the triggers rewrote only
    /// where the commit read them back (RereadDependents.swift): not stale.
    var rereadDependents = ChangeMask()
    /// Entities a batch insert added rows to without listing them (its keys
    /// are kept as ranges, which may be millions): a live result over them
    /// reads itself again.
    var unlistedInserts: Set<Int> = []
    /// Entities whose objects' to-many members a batch insert may have changed
    /// through inverse to-ones (`BatchChanges.relinkedEntities`): a merge
    /// re-reads the objects of them whose to-manys it holds loaded.
    var relinkedEntities: Set<Int> = []
    /// The persistent-history transaction that recorded the commit, when the
    /// store records history.
    var historyTransaction: Int64?
    /// The permanent IDs the commit gave its inserts, by their IDs before:
    /// a child context holding objects its ancestors saved takes them before
    /// it merges, so a merged insert finds the object it already holds.
    var promoted: PromotedIDs?

    var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && staleEntities.isEmpty && unlistedInserts.isEmpty
            && relinkedEntities.isEmpty
    }

    mutating func touch(_ entityIndex: Int) { touchedEntities[entityIndex] = true }
}

/// Something told of every commit of a store: a context, later a history
/// writer or a live result.
protocol StoreChangeSubscriber: AnyObject, Sendable {
    /// Called on the committing thread, after COMMIT; must only queue work.
    func storeDidCommit(_ changes: StoreChanges)
}
