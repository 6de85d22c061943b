/// A child context's fetch sees its ancestors' unsaved changes
/// (ManagedObjectContext+Parent.swift), as `includesPendingChanges` lets a
/// fetch see its own context's.
extension ManagedObjectContext {
    /// A child's fetch: the store's rows with the ancestors' unsaved changes
    /// laid over them — their deletions left out, their inserts and changes
    /// matched in memory (with the ancestors' values), sorted again.
    func merging(_ pending: AncestorChanges, into objects: [ManagedObject], _ request: FetchRequest) throws
        -> [ManagedObject]
    {
        guard !pending.changed.isEmpty || !pending.deleted.isEmpty else { return objects }
        let changed = objectsShowingAncestors(pending.changed)
        return try matching(changed, into: objects.filter { !pending.deleted.contains($0.objectID) }, request)
    }

    /// This child's objects for IDs its ancestors changed, filled with the
    /// ancestors' values.
    func objectsShowingAncestors(_ ids: [ManagedObjectID]) -> [ManagedObject] {
        var changed: [ManagedObject] = []
        for id in ids {
            let object = self.object(owned: id)
            // Read here from the store, it shows the ancestors' values instead.
            if !object.hasChanges, !object.isFaultStorage { refreshUnannounced(object, mergeChanges: false) }
            if fulfill(object) { changed.append(object) }
        }
        return changed
    }
}
