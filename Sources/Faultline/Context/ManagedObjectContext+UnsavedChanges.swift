import Foundation

/// A context's own changes as they happen: while someone follows them, each
/// `processPendingChanges()` — which ends every `perform` and
/// `performAndWait` block and starts every save, as in Core Data — posts the
/// objects inserted, changed, deleted and refreshed since the last one in
/// `managedObjectContextObjectsDidChange`.
///
/// Recording is off until asked for (a fetched-results controller, an
/// observation or `reportsUnsavedChanges` turns it on): Core Data always
/// reports them, but recording costs every write, and a context nobody
/// watches should not pay for it.
extension ManagedObjectContext {
    /// Whether objects-did-change notifications also report this context's
    /// own unsaved changes; on while a fetched-results controller follows it.
    public var reportsUnsavedChanges: Bool {
        get { handle.recordsChanges }
        set {
            reportsUnsavedChangesByRequest = newValue
            updateRecording()
        }
    }

    /// A fetched-results controller starts or stops following the context.
    func follow(_ starting: Bool) {
        followers += starting ? 1 : -1
        updateRecording()
    }

    private func updateRecording() {
        handle.recordsChanges = reportsUnsavedChangesByRequest || followers > 0
    }

    func recordChange(of object: ManagedObject) {
        object.isAwaitingAnnouncement = true
        unannounced.append(object)
    }

    /// Records every object with unsaved changes: what a rollback is about
    /// to revert.
    func recordAllChanges() {
        guard handle.recordsChanges else { return }
        for object in changedInOrder where !object.isAwaitingAnnouncement { recordChange(of: object) }
    }

    /// Posts the changes recorded since the last notification, if any.
    func announceUnsavedChanges() {
        guard !unannounced.isEmpty || !unannouncedRefreshes.isEmpty else { return }
        let objects = unannounced
        unannounced = []
        let refreshed = unannouncedRefreshes
        unannouncedRefreshes = []
        var inserted = Set<ManagedObject>(), updated = Set<ManagedObject>(), deleted = Set<ManagedObject>()
        for object in objects {
            object.isAwaitingAnnouncement = false
            if object.isInsertedStorage, object.isDeletedStorage, !object.wasAnnouncedInserted {
                // Inserted and deleted before any notification showed it: as in
                // Core Data, it never existed for observers.
                continue
            } else if object.isDeletedStorage || object.contextHandle !== handle {
                deleted.insert(object)
            } else if object.isInsertedStorage {
                object.wasAnnouncedInserted = true
                inserted.insert(object)
            } else if object.isUpdated || !refreshed.contains(object) {
                updated.insert(object)
            }
            // Otherwise `refresh(_:mergeChanges: false)` threw its changes
            // away since: it is only refreshed, as in Core Data.
        }
        guard !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty || !refreshed.isEmpty else { return }
        NotificationCenter.default.post(
            name: .managedObjectContextObjectsDidChange, object: self,
            userInfo: [ContextObjectsDidChange.userInfoKey: ContextObjectsDidChange(
                updatedObjects: updated, deletedObjects: deleted, insertedObjects: inserted, refreshedObjects: refreshed)])
    }

    /// Tells observers `reset()` forgot every object (Core Data's
    /// `NSInvalidatedAllObjectsKey`); posted whether or not anyone follows
    /// the context's changes, as Core Data's is.
    func announceReset() {
        NotificationCenter.default.post(
            name: .managedObjectContextObjectsDidChange, object: self,
            userInfo: [ContextObjectsDidChange.userInfoKey: ContextObjectsDidChange(invalidatedAllObjects: true)])
    }
}
