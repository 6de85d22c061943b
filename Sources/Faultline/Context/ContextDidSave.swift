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

    /// Merges `pending`; posts one objects-did-change notification for them
    /// all when they changed what this context holds (objects it showed
    /// refreshed, objects it held deleted, objects inserted), and, before it,
    /// the merge in full to the fetched-results controllers following the
    /// context; then the did-merge notification with every ID merged.
    func mergeAndAnnounce(_ pending: [StoreChanges]) {
        advanceQueryGeneration()
        var updated = Set<ManagedObject>()
        var shown = Set<ManagedObject>()
        var deleted = Set<ManagedObject>()
        var inserted = Set<ManagedObjectID>()
        var updatedIDs = Set<ManagedObjectID>(), deletedIDs = Set<ManagedObjectID>()
        var invalidated = Set<Int>()
        for changes in pending {
            let merged = merge(changes)
            updated.formUnion(merged.updated)
            shown.formUnion(merged.shown)
            deleted.formUnion(merged.deleted)
            updatedIDs.formUnion(merged.unregisteredUpdates)
            deletedIDs.formUnion(merged.unregisteredDeletes)
            inserted.formUnion(changes.inserted)
            invalidated.formUnion(changes.staleEntities)
            invalidated.formUnion(changes.unlistedInserts)
        }
        if !mergeFollowers.isEmpty {
            let merge = ContextMerge(
                updatedObjects: updated.subtracting(deleted), deletedObjects: deleted, insertedObjectIDs: inserted,
                updatedObjectIDs: updatedIDs.subtracting(deletedIDs), deletedObjectIDs: deletedIDs, invalidatedEntities: invalidated)
            mergeFollowers.removeAll { $0.follower == nil }
            if !merge.isEmpty {
                for follower in mergeFollowers { follower.follower?.contextDidMerge(merge) }
            }
        }
        // An object inserted and deleted by saves merged together never reached this context.
        let gone = deletedIDs.union(deleted.lazy.map(\.objectID))
        let refreshed = shown.subtracting(deleted)
        let change = ContextObjectsDidChange(
            mergedInto: self, refreshedObjects: refreshed, deletedObjects: deleted,
            insertedObjectIDs: gone.isEmpty ? inserted : inserted.subtracting(gone))
        if !change.isEmpty {
            NotificationCenter.default.post(
                name: .managedObjectContextObjectsDidChange, object: self,
                userInfo: [ContextObjectsDidChange.userInfoKey: change])
        }
        let allUpdated = updatedIDs.union(updated.lazy.map(\.objectID))
        guard !inserted.isEmpty || !allUpdated.isEmpty || !gone.isEmpty else { return }
        let merged = ContextDidMergeChanges(
            insertedObjectIDs: inserted, updatedObjectIDs: allUpdated.subtracting(gone), deletedObjectIDs: gone,
            refreshedObjectIDs: Set(refreshed.lazy.map(\.objectID)))
        NotificationCenter.default.post(
            name: .managedObjectContextDidMergeChangesObjectIDs, object: self,
            userInfo: [ContextDidMergeChanges.userInfoKey: merged])
    }

    /// Runs the automatic merge on the context's own queue. The context is
    /// held weakly: a merge never keeps a dropped context alive.
    func scheduleMerge() {
        queue.async { [weak self] in self?.mergeInbox() }
    }

    /// Merges another context's save: updated objects without local changes
    /// turn into faults (their next access reads the new row), changed ones keep
    /// their changes; deleted objects leave the context.
    /// Posts the objects-did-change notification, as Core Data's does: the
    /// objects it refreshed that the context showed, the held objects it
    /// deleted and the objects inserted; nothing when it changed none of them.
    /// The did-save of a save with nothing to save merges nothing.
    public func mergeChanges(fromContextDidSave changes: ContextDidSave) {
        guard !changes.changes.isEmpty else { return }
        mergeAndAnnounce([changes.changes])
    }

    /// `shown`: the updated objects that were not faults, whose values the
    /// context had shown — what Core Data reports as refreshed.
    private func merge(_ changes: StoreChanges) -> (
        updated: [ManagedObject], shown: [ManagedObject], deleted: [ManagedObject],
        unregisteredUpdates: [ManagedObjectID], unregisteredDeletes: [ManagedObjectID]
    ) {
        var updated: [ManagedObject] = []
        var shown: [ManagedObject] = []
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
            if !object.isFaultStorage { shown.append(object) }
            refreshUnannounced(object, mergeChanges: true)
            updated.append(object)
        }
        if !changes.staleEntities.isEmpty {
            for object in registered.objects(ofEntities: changes.staleEntities) {
                if !object.isFaultStorage { shown.append(object) }
                refreshUnannounced(object, mergeChanges: true)
                updated.append(object)
            }
        }
        if !changes.relinkedEntities.isEmpty {
            let relinked = EntityIndexMask(changes.relinkedEntities)
            for object in registered.values where relinked.contains(object.entityIndex)
                && object.toMany.contains(where: { $0?.members != nil }) {
                if !object.isFaultStorage { shown.append(object) }
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
        return (updated, shown, deleted, unregisteredUpdates, unregisteredDeletes)
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
