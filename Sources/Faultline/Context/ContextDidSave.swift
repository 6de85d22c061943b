import Foundation

/// What one context's save changed, by object ID: the payload of the did-save
/// notification and what other contexts merge (the store's published changes).
public struct ContextDidSave: Sendable {
    let changes: StoreChanges
    /// The persistent-history transaction the save recorded (Core Data's
    /// `NSPersistentHistoryTokenKey`); nil when the store records no history.
    public let historyToken: PersistentHistoryToken?

    init(_ changes: StoreChanges, historyToken: PersistentHistoryToken? = nil) {
        self.changes = changes
        self.historyToken = historyToken
    }

    public var insertedObjectIDs: Set<ManagedObjectID> { changes.inserted }
    public var updatedObjectIDs: Set<ManagedObjectID> { changes.updated }
    public var deletedObjectIDs: Set<ManagedObjectID> { changes.deleted }
}

extension Notification.Name {
    /// Posted after a context saves; `object` is the context and `userInfo`
    /// holds a `ContextDidSave` under `ContextDidSave.userInfoKey`.
    public static let managedObjectContextDidSave = Notification.Name("FaultlineManagedObjectContextDidSave")
}

extension ContextDidSave {
    public static let userInfoKey = "changes"
}

/// A context hears of every other commit on its store: the changes wait in
/// its inbox; a context that merges automatically gets one merge scheduled on
/// its queue per burst of commits (the first one into an empty inbox schedules it).
extension ManagedObjectContext: StoreChangeSubscriber {
    func storeDidCommit(_ changes: StoreChanges) {
        let wasEmpty = inbox.withLock { inbox in
            defer { inbox.append(changes) }
            return inbox.isEmpty
        }
        if wasEmpty, automaticallyMergesChangesFromParent { scheduleMerge() }
    }
}

/// What a merge changed in a context: the payload of
/// `managedObjectContextObjectsDidChange`, Core Data's
/// `NSManagedObjectContextObjectsDidChange` (updated, deleted and inserted keys).
public struct ContextObjectsDidChange {
    /// Registered objects another save changed; they now show its values.
    public let updatedObjects: Set<ManagedObject>
    /// Registered objects another save deleted; they have left the context.
    public let deletedObjects: Set<ManagedObject>
    /// Objects another save inserted (not registered here yet).
    public let insertedObjectIDs: Set<ManagedObjectID>

    public static let userInfoKey = "changes"
    var isEmpty: Bool { updatedObjects.isEmpty && deletedObjects.isEmpty && insertedObjectIDs.isEmpty }
}

extension Notification.Name {
    /// Posted on a context's queue after it merged other contexts' saves;
    /// `object` is the context, `userInfo` holds a `ContextObjectsDidChange`
    /// under `ContextObjectsDidChange.userInfoKey`.
    public static let managedObjectContextObjectsDidChange = Notification.Name("FaultlineManagedObjectContextObjectsDidChange")
}

extension ManagedObjectContext {
    /// Applies the saves of other contexts queued for this one (when
    /// `automaticallyMergesChangesFromParent` is on; otherwise they are dropped,
    /// and objects stay as they were until refreshed).
    public func processPendingChanges() {
        mergeInbox()
        try? propagateDeletes()
    }

    func mergeInbox() {
        let pending = inbox.withLock { box -> [StoreChanges] in
            let drained = box
            box.removeAll()
            return drained
        }
        guard automaticallyMergesChangesFromParent, !pending.isEmpty else { return }
        mergeAndAnnounce(pending)
    }

    /// Merges `pending` and posts one objects-did-change notification for
    /// them all (none when nothing registered here changed and nothing was
    /// inserted): what observers, fetched-results controllers among them, follow.
    func mergeAndAnnounce(_ pending: [StoreChanges]) {
        var updated = Set<ManagedObject>()
        var deleted = Set<ManagedObject>()
        var inserted = Set<ManagedObjectID>()
        for changes in pending {
            let merged = merge(changes)
            updated.formUnion(merged.updated)
            deleted.formUnion(merged.deleted)
            inserted.formUnion(changes.inserted)
        }
        let change = ContextObjectsDidChange(
            updatedObjects: updated.subtracting(deleted), deletedObjects: deleted, insertedObjectIDs: inserted)
        guard !change.isEmpty else { return }
        NotificationCenter.default.post(
            name: .managedObjectContextObjectsDidChange, object: self,
            userInfo: [ContextObjectsDidChange.userInfoKey: change])
    }

    /// Runs the automatic merge on the context's own queue. The context is
    /// held weakly: a merge never keeps a dropped context alive.
    func scheduleMerge() {
        queue.async { [weak self] in self?.mergeInbox() }
    }

    /// Merges another context's save: updated objects without local changes
    /// turn into faults (their next access reads the new row), changed ones keep
    /// their changes; deleted objects leave the context.
    /// Posts the objects-did-change notification, as Core Data's does.
    public func mergeChanges(fromContextDidSave changes: ContextDidSave) {
        mergeAndAnnounce([changes.changes])
    }

    private func merge(_ changes: StoreChanges) -> (updated: [ManagedObject], deleted: [ManagedObject]) {
        var updated: [ManagedObject] = []
        var deleted: [ManagedObject] = []
        for id in changes.updated {
            guard let object = registered[id] else { continue }
            refresh(object, mergeChanges: true)
            updated.append(object)
        }
        if !changes.staleEntities.isEmpty {
            for object in registered.values where changes.staleEntities.contains(object.entityIndex) {
                refresh(object, mergeChanges: true)
                updated.append(object)
            }
        }
        for id in changes.deleted {
            guard let object = registered.removeValue(forKey: id) else { continue }
            forgetChanges(of: object)
            object.isDeletedStorage = true
            object.isFaultStorage = true
            object.releaseStorage()
            deleted.append(object)
        }
        return (updated, deleted)
    }
}
