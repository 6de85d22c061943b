/// `fetchLimit` and `fetchOffset` count the objects a fetch returns with the
/// unsaved changes laid over the store's rows, as Core Data's do: an unsaved
/// insert can take a place in the window, a deleted or changed object leave
/// it. When such changes exist, the statement reads from the first row as
/// many rows as the window's end plus every stored object that could leave
/// it, and the window is cut in memory after the merge.
extension ManagedObjectContext {
    /// The unsaved changes of a child's ancestors to the fetched entities.
    typealias AncestorChanges = (changed: [ManagedObjectID], deleted: Set<ManagedObjectID>)

    /// The ancestors' unsaved changes to the entities `request` fetches; nil
    /// for a context without a parent.
    func ancestorChanges(_ request: FetchRequest, _ entity: CheckedEntity) -> AncestorChanges? {
        guard let parent else { return nil }
        let hierarchy = Set(request.includesSubentities ? entity.hierarchyIndexes : [entity.index])
        return parent.performAndWait { parent.pendingForChild(in: hierarchy) }
    }

    /// `request` reading the store from its first row to past its window's
    /// end by every stored object that may leave it, when unsaved changes
    /// (this context's, or `ancestors`') may move the window; nil when the
    /// store's own `LIMIT`/`OFFSET` give the right objects.
    func widenedForPendingChanges(
        _ request: FetchRequest, _ entity: CheckedEntity, ancestors: AncestorChanges?
    ) -> FetchRequest? {
        guard request.fetchLimit > 0 || request.fetchOffset > 0 else { return nil }
        let hierarchy = request.includesSubentities ? entity.hierarchyIndexes : [entity.index]
        var changes = 0
        var leaving = 0
        for object in changeOrder where object.isTrackedAsChanged && hierarchy.contains(object.entityIndex) {
            changes += 1
            if !object.isInsertedStorage { leaving += 1 }
        }
        if let ancestors {
            changes += ancestors.changed.count + ancestors.deleted.count
            leaving += ancestors.changed.count + ancestors.deleted.count
        }
        guard changes > 0 else { return nil }
        var widened = request
        widened.fetchOffset = 0
        if request.fetchLimit > 0 {
            let (end, overflow) = request.fetchOffset.addingReportingOverflow(request.fetchLimit)
            let (limit, overflowAgain) = end.addingReportingOverflow(leaving)
            widened.fetchLimit = overflow || overflowAgain ? 0 : limit
        }
        return widened
    }

    /// `objects` cut to `request`'s offset and limit.
    static func window<Element>(_ objects: [Element], of request: FetchRequest) -> [Element] {
        let start = min(request.fetchOffset, objects.count)
        let end = request.fetchLimit > 0 ? start + min(request.fetchLimit, objects.count - start) : objects.count
        return Array(objects[start..<end])
    }
}
