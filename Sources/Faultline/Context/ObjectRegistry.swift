/// A context's objects by ID. Unsaved inserts (temporary IDs) are kept apart
/// from stored objects: a save moves every insert to its permanent ID, and
/// dropping the temporary table at once costs far less than deleting 100,000
/// keys one by one from the table every fetch and fault also probes.
struct ObjectRegistry {
    private let stored = ObjectIDTable<ManagedObject>()
    private var unsaved: [ManagedObjectID: ManagedObject] = [:]

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
    var values: [ManagedObject] { stored.allValues + Array(unsaved.values) }

    /// The objects of these entities: what a save whose triggers may have
    /// rewritten their derived values refreshes. Walks the IDs, not the
    /// objects, so a context holding 10,000 articles and 100 categories
    /// gathers the categories without touching the articles.
    func objects(ofEntities entities: Set<Int>) -> [ManagedObject] {
        let wanted = EntityIndexMask(entities)
        var result = stored.values(extra: unsaved.count) { wanted.contains($0.entityIndex) }
        for object in unsaved.values where wanted.contains(object.entityIndex) { result.append(object) }
        return result
    }

    var count: Int { stored.count + unsaved.count }

    @discardableResult
    mutating func removeValue(forKey id: ManagedObjectID) -> ManagedObject? {
        id.isTemporaryID ? unsaved.removeValue(forKey: id) : stored.removeValue(for: id)
    }

    /// Forgets every object and the table's size: a reset context starts small.
    mutating func removeAll() {
        stored.removeAll(keepingCapacity: false)
        unsaved.removeAll()
    }

    /// Room for `additional` more stored objects (a fetch's rows).
    mutating func reserveStored(_ additional: Int) {
        stored.reserve(additional)
    }

    /// Forgets the temporary IDs of objects a save gave permanent ones
    /// (already registered under those).
    mutating func dropTemporary(_ ids: [ManagedObjectID]) {
        if ids.count == unsaved.count {
            unsaved.removeAll()
        } else {
            for id in ids { unsaved[id] = nil }
        }
    }
}
