/// A child context's fetch sees its ancestors' unsaved changes
/// (ManagedObjectContext+Parent.swift), as `includesPendingChanges` lets a
/// fetch see its own context's.
extension ManagedObjectContext {
    /// A child's fetch: the store's rows with the ancestors' unsaved changes
    /// laid over them — their deletions left out, their inserts and changes
    /// matched in memory (with the ancestors' values), sorted again.
    func mergingAncestorChanges(into objects: [ManagedObject], _ request: FetchRequest, _ entity: CheckedEntity) throws
        -> [ManagedObject]
    {
        guard let parent else { return objects }
        let hierarchy = Set(request.includesSubentities ? entity.hierarchyIndexes : [entity.index])
        let pending = parent.performAndWait { parent.pendingForChild(in: hierarchy) }
        guard !pending.changed.isEmpty || !pending.deleted.isEmpty else { return objects }
        var result = objects.filter { !pending.deleted.contains($0.objectID) }
        var present = Set(result.map(ObjectIdentifier.init))
        var removed = Set<ObjectIdentifier>()
        for id in pending.changed {
            let object = self.object(owned: id)
            // Read here from the store, it shows the ancestors' values instead.
            if !object.hasChanges, !object.isFaultStorage { refresh(object, mergeChanges: false) }
            guard fulfill(object) else { continue }
            if try request.predicate?.evaluate(with: object) ?? true {
                present.insert(ObjectIdentifier(object)).inserted ? result.append(object) : ()
            } else if present.contains(ObjectIdentifier(object)) {
                removed.insert(ObjectIdentifier(object))
            }
        }
        result.removeAll { removed.contains(ObjectIdentifier($0)) }
        if !request.sortDescriptors.isEmpty { result = try InMemorySort(request.sortDescriptors).sorted(result) }
        if request.fetchLimit > 0, result.count > request.fetchLimit { result = Array(result.prefix(request.fetchLimit)) }
        return result
    }
}
