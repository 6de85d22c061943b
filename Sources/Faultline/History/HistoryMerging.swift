import Foundation

extension ManagedObjectContext {
    /// Merges one persistent-history transaction — another process's save, a
    /// widget's, a sync engine's — into the context (Core Data's
    /// `mergeChanges(fromContextDidSave: transaction.objectIDNotification())`):
    /// the store's cached rows of the changed objects are dropped, updated
    /// objects without local changes turn into faults that read the new rows,
    /// changed ones keep their changes, deleted objects leave the context; the
    /// objects-did-change notification is posted, as for a local save. Call it
    /// on the context's queue.
    public func mergeChanges(from transaction: PersistentHistoryTransaction) {
        let changes = coordinator.storeChanges(of: transaction)
        coordinator.rowCache.invalidate(changes.updated + changes.deleted)
        mergeAndAnnounce([changes])
    }
}
