import Foundation

/// What one context's save changed, by object ID: the payload of the did-save
/// notification and what other contexts merge (the store's published changes).
public struct ContextDidSave: Sendable {
    let changes: StoreChanges
    /// The persistent-history transaction the save recorded (Core Data's
    /// `NSPersistentHistoryTokenKey`); nil when the store records no history.
    public let historyToken: PersistentHistoryToken?

    /// The permanent ID of each object the save inserted, with its temporary
    /// one: what child contexts holding those objects under their temporary
    /// IDs adopt.
    let promoted: PromotedIDs

    init(_ changes: StoreChanges, historyToken: PersistentHistoryToken? = nil, promoted: PromotedIDs = PromotedIDs()) {
        self.changes = changes
        self.historyToken = historyToken
        self.promoted = promoted
    }

    /// Built from the save's list on each call.
    public var insertedObjectIDs: Set<ManagedObjectID> { Set(changes.inserted) }
    public var updatedObjectIDs: Set<ManagedObjectID> { Set(changes.updated) }
    public var deletedObjectIDs: Set<ManagedObjectID> { changes.deleted }
}

extension Notification.Name {
    /// Posted as a context's `save()` starts, on its queue, before anything
    /// is checked or written (Core Data's `NSManagedObjectContextWillSave`):
    /// `object` is the context, there is no `userInfo`, and what an observer
    /// changes in the context is part of the save. Posted for a save with
    /// nothing to save too.
    public static let managedObjectContextWillSave = Notification.Name("FaultlineManagedObjectContextWillSave")

    /// Posted after a context saves; `object` is the context and `userInfo`
    /// holds a `ContextDidSave` under `ContextDidSave.userInfoKey`.
    public static let managedObjectContextDidSave = Notification.Name("FaultlineManagedObjectContextDidSave")
}

extension ContextDidSave {
    public static let userInfoKey = "changes"
}

/// A context hears of every other commit on its store. One that merges
/// automatically keeps the changes in its inbox and gets one merge scheduled
/// on its queue per burst of commits (the first one into an empty inbox
/// schedules it); one that does not keeps nothing, as a Core Data context
/// that does not merge is not told. Its next perform would only drop them:
/// kept until then, an idle context (a reader a service holds and rarely
/// uses) grew by every commit of every other context, about 190 bytes each.
extension ManagedObjectContext: StoreChangeSubscriber {
    func storeDidCommit(_ changes: StoreChanges) { queueMerge(of: changes) }

    /// Keeps `changes` for the next merge; the first into an empty inbox
    /// schedules it. A sibling's save into the parent comes this way too.
    func queueMerge(of changes: StoreChanges) {
        guard automaticallyMergesChangesFromParent else { return }
        let wasEmpty = inbox.withLock { inbox in
            defer { inbox.append(changes) }
            return inbox.isEmpty
        }
        if wasEmpty { scheduleMerge() }
    }
}

/// What changed in a context: the payload of
/// `managedObjectContextObjectsDidChange`, Core Data's
/// `NSManagedObjectContextObjectsDidChange`. Posted after a merge of other
/// saves and, while `reportsUnsavedChanges` is on, for the context's own
/// changes and refreshes at each `processPendingChanges()` (and at once by
/// `rollback()` and `refreshAllObjects()`).
public struct ContextObjectsDidChange {
    /// Registered objects that changed: by this context, or by another save
    /// (they then show its values).
    public let updatedObjects: Set<ManagedObject>
    /// Objects deleted: by this context (not saved yet), or by another save
    /// (they have left the context).
    public let deletedObjects: Set<ManagedObject>
    /// Objects this context inserted (not saved yet).
    public let insertedObjects: Set<ManagedObject>
    /// Objects another save inserted (not registered here yet).
    public let insertedObjectIDs: Set<ManagedObjectID>
    /// Objects another save updated or deleted that this context had not
    /// registered (a fetched-results controller over a batched fetch holds
    /// such IDs).
    public let updatedObjectIDs: Set<ManagedObjectID>
    public let deletedObjectIDs: Set<ManagedObjectID>
    /// Objects `refresh(_:mergeChanges:)` or `refreshAllObjects()` read again
    /// from the store (Core Data's `NSRefreshedObjectsKey`): their values,
    /// and a pending deletion a refresh discarded, may have changed. A
    /// merge's own refreshes are reported as updates instead.
    public let refreshedObjects: Set<ManagedObject>
    /// Entities whose rows changed without a list of which (a batch request
    /// that returned no IDs, derived values rewritten by the store): Core
    /// Data's `NSInvalidatedAllObjectsKey`, by entity index.
    let invalidatedEntities: Set<Int>

    init(updatedObjects: Set<ManagedObject> = [], deletedObjects: Set<ManagedObject> = [],
         insertedObjects: Set<ManagedObject> = [], insertedObjectIDs: Set<ManagedObjectID> = [],
         updatedObjectIDs: Set<ManagedObjectID> = [], deletedObjectIDs: Set<ManagedObjectID> = [],
         refreshedObjects: Set<ManagedObject> = [], invalidatedEntities: Set<Int> = []) {
        self.updatedObjects = updatedObjects
        self.deletedObjects = deletedObjects
        self.insertedObjects = insertedObjects
        self.insertedObjectIDs = insertedObjectIDs
        self.updatedObjectIDs = updatedObjectIDs
        self.deletedObjectIDs = deletedObjectIDs
        self.refreshedObjects = refreshedObjects
        self.invalidatedEntities = invalidatedEntities
    }

    public static let userInfoKey = "changes"
    var isEmpty: Bool {
        updatedObjects.isEmpty && deletedObjects.isEmpty && insertedObjects.isEmpty && insertedObjectIDs.isEmpty
            && updatedObjectIDs.isEmpty && deletedObjectIDs.isEmpty && refreshedObjects.isEmpty && invalidatedEntities.isEmpty
    }
}

extension Notification.Name {
    /// Posted on a context's queue after it merged other contexts' saves;
    /// `object` is the context, `userInfo` holds a `ContextObjectsDidChange`
    /// under `ContextObjectsDidChange.userInfoKey`.
    public static let managedObjectContextObjectsDidChange = Notification.Name("FaultlineManagedObjectContextObjectsDidChange")
}

extension ManagedObjectContext {
    /// Applies the saves of other contexts queued for this one (when
    /// `automaticallyMergesChangesFromParent` is on; otherwise none are queued,
    /// or those queued before it was turned off are dropped, and objects stay
    /// as they were until refreshed).
    public func processPendingChanges() {
        mergeInbox()
        endEvent()
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
        advanceQueryGeneration()
        var updated = Set<ManagedObject>()
        var deleted = Set<ManagedObject>()
        var inserted = Set<ManagedObjectID>()
        var updatedIDs = Set<ManagedObjectID>(), deletedIDs = Set<ManagedObjectID>()
        var invalidated = Set<Int>()
        for changes in pending {
            let merged = merge(changes)
            updated.formUnion(merged.updated)
            deleted.formUnion(merged.deleted)
            updatedIDs.formUnion(merged.unregisteredUpdates)
            deletedIDs.formUnion(merged.unregisteredDeletes)
            inserted.formUnion(changes.inserted)
            invalidated.formUnion(changes.staleEntities)
            invalidated.formUnion(changes.unlistedInserts)
        }
        let change = ContextObjectsDidChange(
            updatedObjects: updated.subtracting(deleted), deletedObjects: deleted, insertedObjectIDs: inserted,
            updatedObjectIDs: updatedIDs.subtracting(deletedIDs), deletedObjectIDs: deletedIDs, invalidatedEntities: invalidated)
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
    /// Posts the objects-did-change notification, as Core Data's does. The
    /// did-save of a save with nothing to save merges nothing and posts nothing.
    public func mergeChanges(fromContextDidSave changes: ContextDidSave) {
        guard !changes.changes.isEmpty else { return }
        mergeAndAnnounce([changes.changes])
    }

    private func merge(_ changes: StoreChanges) -> (
        updated: [ManagedObject], deleted: [ManagedObject],
        unregisteredUpdates: [ManagedObjectID], unregisteredDeletes: [ManagedObjectID]
    ) {
        var updated: [ManagedObject] = []
        var deleted: [ManagedObject] = []
        var unregisteredUpdates: [ManagedObjectID] = [], unregisteredDeletes: [ManagedObjectID] = []
        // The ancestors' save may reach this merge before the adoption its
        // did-save notification queued: an insert this child pushed would
        // otherwise come back as a second object under its permanent ID.
        if parent != nil, let promoted = changes.promoted { adoptPermanentIDs(promoted) }
        for id in changes.updated {
            guard let object = registered[id] else {
                unregisteredUpdates.append(id)
                continue
            }
            refreshUnannounced(object, mergeChanges: true)
            updated.append(object)
        }
        if !changes.staleEntities.isEmpty {
            for object in registered.objects(ofEntities: changes.staleEntities) {
                refreshUnannounced(object, mergeChanges: true)
                updated.append(object)
            }
        }
        for id in changes.deleted {
            guard let object = registered.removeValue(forKey: id) else {
                unregisteredDeletes.append(id)
                continue
            }
            forgetChanges(of: object)
            object.isDeletedStorage = true
            object.isFaultStorage = true
            object.releaseStorage()
            deleted.append(object)
        }
        if !deleted.isEmpty { dropFromRelationships(deleted) }
        return (updated, deleted, unregisteredUpdates, unregisteredDeletes)
    }

    /// Objects another save deleted leave this context's to-manys and the join
    /// rows its next save would write: a link to a row that is gone would be
    /// written, or listed, otherwise.
    private func dropFromRelationships(_ gone: [ManagedObject]) {
        guard gone.contains(where: { coordinator.toManyDestinations.contains($0.entityIndex) }) else { return }
        let keys = Set(gone.map(ObjectKey.init))
        if !links.isEmpty { for object in gone { links.replace(object, with: nil) } }
        for object in registered.values {
            for state in object.toMany {
                guard let state else { continue }
                for member in state.members ?? [] where keys.contains(ObjectKey(member)) { state.remove(member) }
                for member in state.pendingAdds where keys.contains(ObjectKey(member)) { state.remove(member) }
            }
        }
    }
}
