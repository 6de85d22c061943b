import Foundation

/// `includesPendingChanges`: unsaved inserted and changed objects of the
/// fetched entity are matched against the predicate in memory, with the
/// evaluator, as Core Data does; changed objects that no longer match leave
/// the result. When anything was added or a changed object stays, the result
/// is sorted again in memory by the sort descriptors (a changed sort key
/// moves it, as in Core Data) and cut to `fetchLimit`.
extension ManagedObjectContext {
    /// Whether this context holds unsaved inserts, changes or deletions of
    /// the entities `request` fetches.
    func hasPendingChanges(for entity: CheckedEntity, _ request: FetchRequest) -> Bool {
        let hierarchy = request.includesSubentities ? entity.hierarchyIndexes : [entity.index]
        return changeOrder.contains { $0.isTrackedAsChanged && hierarchy.contains($0.entityIndex) }
    }

    func mergingPendingChanges(
        into objects: [ManagedObject], _ request: FetchRequest, _ entity: CheckedEntity
    ) throws -> [ManagedObject] {
        guard hasPendingChanges(for: entity, request) else { return objects }
        let hierarchy = Set(request.includesSubentities ? entity.hierarchyIndexes : [entity.index])
        let changed = changedInOrder.lazy.filter {
            hierarchy.contains($0.entityIndex) && !$0.isDeletedStorage && ($0.isInsertedStorage || $0.hasChanges)
        }
        return try matching(changed, into: objects, request)
    }

    /// `objects` (what the store returned) with `changed` objects matched in
    /// memory: one that matches joins, one that no longer does leaves; when
    /// anything joined or a changed one stayed (its sort key may have moved
    /// it), the result is sorted again; then cut to `fetchLimit`. What a
    /// fetch's own pending changes and a child's ancestors' changes share.
    func matching(_ changed: some Sequence<ManagedObject>, into objects: [ManagedObject], _ request: FetchRequest) throws
        -> [ManagedObject]
    {
        var present = Set(objects.map(ObjectIdentifier.init))
        var removed = Set<ObjectIdentifier>()
        var added: [ManagedObject] = []
        var keptChanged = false
        for object in changed {
            if try request.predicate?.evaluate(with: object) ?? true {
                if present.insert(ObjectIdentifier(object)).inserted { added.append(object) } else { keptChanged = true }
            } else if present.contains(ObjectIdentifier(object)) {
                removed.insert(ObjectIdentifier(object))
            }
        }
        guard !added.isEmpty || !removed.isEmpty || keptChanged else { return objects }
        var result = objects.filter { !removed.contains(ObjectIdentifier($0)) } + added
        if !added.isEmpty || keptChanged, !request.sortDescriptors.isEmpty {
            result = try InMemorySort(request.sortDescriptors).sorted(result)
        }
        if request.fetchLimit > 0, result.count > request.fetchLimit { result = Array(result.prefix(request.fetchLimit)) }
        return result
    }
}
