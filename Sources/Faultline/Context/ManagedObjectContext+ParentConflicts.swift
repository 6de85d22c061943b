/// A child's save checked against its parent, as Core Data's optimistic
/// locking between nested contexts: an object the child changed or deleted
/// conflicts when the parent has changed or deleted it since the child read
/// it (the child's committed snapshot is the parent's row then). The child's
/// merge policy resolves it exactly as a store conflict, with the parent's
/// current row in the store's place; `.error` fails the save with
/// `SaveConflict.parentContext` and pushes nothing.
///
/// An object the parent does not hold (neither changed nor materialised
/// there) has nothing to conflict with here: the parent's own save checks it
/// against the store.
extension ManagedObjectContext {
    func resolveParentConflicts(_ parent: ManagedObjectContext) throws {
        let candidates = changedInOrder.filter {
            !$0.isInsertedStorage && $0.committed != nil && ($0.isDeletedStorage || $0.hasChangedProperties)
        }
        guard !candidates.isEmpty else { return }
        let ids = candidates.map(\.objectID)
        let rows = parent.performAndWait { ids.map(parent.rowForChild) }
        var conflicts: [(object: ManagedObject, parentRow: RowSnapshot?)] = []
        for (object, row) in zip(candidates, rows) {
            guard let read = object.committed else { continue }
            switch row {
            case .unknown:
                continue
            case .deleted:
                conflicts.append((object, nil))
            case .row(let current):
                if current.values != read.values || current.toOne != read.toOne { conflicts.append((object, current)) }
            }
        }
        guard !conflicts.isEmpty else { return }
        if mergePolicy == .error {
            throw SaveError.conflicts(conflicts.map { .parentContext($0.object.objectID, parentDeleted: $0.parentRow == nil) })
        }
        for (object, parentRow) in conflicts {
            // The parent's deletion wins under every policy, as the store's does.
            guard let parentRow else {
                detach(object)
                continue
            }
            resolveVersionConflict(object, store: parentRow)
        }
    }
}
