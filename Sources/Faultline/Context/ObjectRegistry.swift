/// A context's objects by ID. Unsaved inserts (temporary IDs) are kept apart
/// from stored objects: a save moves every insert to its permanent ID, and
/// dropping the temporary table at once costs far less than deleting 100,000
/// keys one by one from the table every fetch and fault also probes. Both
/// are `ObjectIDTable`s: a `Dictionary` hashed each insert's ID with SipHash.
struct ObjectRegistry {
    private let stored = ObjectIDTable<ManagedObject>()
    private let unsaved = ObjectIDTable<ManagedObject>()
    /// Which entities' objects are kept in `tracked` (a save's triggers can
    /// make them stale: `PersistentStoreCoordinator.derivedTargets`).
    var trackedEntities = EntityIndexMask([])
    /// Every object of a tracked entity the context made, so refreshing them
    /// walks those objects rather than the whole registry. Objects that left
    /// the registry are pruned when the list is walked, or when it outgrows
    /// twice what was registered at the last prune.
    private var tracked: [ManagedObject] = []
    private var trackedAtLastPrune = 0

    subscript(id: ManagedObjectID) -> ManagedObject? {
        get { id.isTemporaryID ? unsaved[id] : stored[id] }
        set {
            if id.isTemporaryID { unsaved[id] = newValue } else { stored[id] = newValue }
        }
    }

    /// The table of stored objects, for `ObjectIDTable.value(for:orMake:)`:
    /// a reference, so making an object may use the registry meanwhile.
    var storedObjects: ObjectIDTable<ManagedObject> { stored }

    /// Every object, stored ones first.
    var values: [ManagedObject] { stored.allValues + unsaved.allValues }

    /// Notes an object the context just made (registered or about to be).
    @inline(__always)
    mutating func noteMade(_ object: ManagedObject) {
        guard trackedEntities.contains(object.entityIndex) else { return }
        // Pruned before the append: the object just made is not registered yet.
        if tracked.count >= 2 * trackedAtLastPrune + 64 { pruneTracked() }
        tracked.append(object)
    }

    /// The registered objects of these entities, all tracked: what a save
    /// whose triggers may have rewritten their derived values refreshes. A
    /// save's stale entities are the coordinator's `derivedTargets` or some
    /// of them (both come from `DerivedDependencies`), so a context holding
    /// 10,000 articles and 100 categories touches the categories only.
    mutating func objects(ofEntities entities: Set<Int>) -> [ManagedObject] {
        assert(entities.allSatisfy(trackedEntities.contains), "stale entities the registry does not track")
        let wanted = EntityIndexMask(entities)
        pruneTracked()
        var result: [ManagedObject] = []
        result.reserveCapacity(tracked.count)
        for object in tracked where wanted.contains(object.entityIndex) { result.append(object) }
        return result
    }

    /// Keeps the tracked objects still registered under their current IDs.
    private mutating func pruneTracked() {
        let stored = self.stored, unsaved = self.unsaved
        tracked.removeAll { object in
            let id = object.objectID
            return (id.isTemporaryID ? unsaved[id] : stored[id]) !== object
        }
        trackedAtLastPrune = tracked.count
    }

    var count: Int { stored.count + unsaved.count }
    /// Objects registered under temporary IDs: about the inserts a save writes.
    var unsavedCount: Int { unsaved.count }

    @discardableResult
    mutating func removeValue(forKey id: ManagedObjectID) -> ManagedObject? {
        id.isTemporaryID ? unsaved.removeValue(for: id) : stored.removeValue(for: id)
    }

    /// Forgets every object and the table's size: a reset context starts small.
    mutating func removeAll() {
        stored.removeAll(keepingCapacity: false)
        unsaved.removeAll(keepingCapacity: false)
        tracked.removeAll()
        trackedAtLastPrune = 0
    }

    /// Room for `additional` more stored objects (a fetch's rows).
    mutating func reserveStored(_ additional: Int) {
        stored.reserve(additional)
    }

    /// Forgets the temporary IDs of objects a save gave permanent ones
    /// (already registered under those).
    mutating func dropTemporary(_ ids: some Collection<ManagedObjectID>) {
        // A few go one by one, and the table keeps its size for the next
        // save; emptying a kept table walks every bucket.
        if ids.count == unsaved.count, !ManagedObjectContext.keepsForNextSave(ids.count) {
            unsaved.removeAll(keepingCapacity: false)
        } else {
            for id in ids { unsaved[id] = nil }
        }
    }
}
