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
/// saves that changed what this context holds, by `reset()`, and, while
/// `reportsUnsavedChanges` is on, for the context's own changes and
/// refreshes at each `processPendingChanges()` (and at once by `rollback()`
/// and `refreshAllObjects()`).
///
/// A merge reports what Core Data's does: the objects it refreshed that this
/// context was showing (registered, not faults) in `refreshedObjects`, the
/// registered objects it deleted in `deletedObjects`, and every object it
/// inserted in `insertedObjects`. Updates and deletions of objects this
/// context never registered, or holds only as faults, change nothing here:
/// a merge of only those posts nothing.
public struct ContextObjectsDidChange {
    /// Registered objects this context changed (not saved yet).
    public let updatedObjects: Set<ManagedObject>
    /// Objects deleted: by this context (not saved yet), or by another save
    /// (they have left the context).
    public let deletedObjects: Set<ManagedObject>
    /// Objects this context inserted (not saved yet) and, after a merge, the
    /// objects another save inserted. Those are registered here, as faults,
    /// when this is first read (on the context's queue, as every object of
    /// the notification is): a merge nobody asks about registers nothing.
    public var insertedObjects: Set<ManagedObject> {
        guard !insertedObjectIDs.isEmpty, let context else { return ownInsertedObjects }
        return ownInsertedObjects.union(insertedObjectIDs.map { context.object(owned: $0) })
    }
    /// The objects of `insertedObjects` another save inserted, by ID:
    /// reading them registers nothing.
    public let insertedObjectIDs: Set<ManagedObjectID>
    /// Objects read again from the store (Core Data's
    /// `NSRefreshedObjectsKey`): by `refresh(_:mergeChanges:)` or
    /// `refreshAllObjects()` — their values, and a pending deletion a
    /// refresh discarded, may have changed — or by a merge of another save
    /// that updated them, which they now show.
    public let refreshedObjects: Set<ManagedObject>
    /// Whether `reset()` forgot every object of the context (Core Data's
    /// `NSInvalidatedAllObjectsKey` is present): each object it had is
    /// detached, and fetching again is the only way back.
    public let invalidatedAllObjects: Bool

    /// This context's own inserts, as recorded.
    let ownInsertedObjects: Set<ManagedObject>
    /// Whether a merge posted this: a fetched-results controller takes a
    /// merge in full from the context (`ContextMergeFollower`) instead.
    let isMerge: Bool
    /// The context, to register the inserted objects of a merge.
    private weak var context: ManagedObjectContext?

    init(updatedObjects: Set<ManagedObject> = [], deletedObjects: Set<ManagedObject> = [],
         insertedObjects: Set<ManagedObject> = [], refreshedObjects: Set<ManagedObject> = [],
         invalidatedAllObjects: Bool = false) {
        self.updatedObjects = updatedObjects
        self.deletedObjects = deletedObjects
        self.ownInsertedObjects = insertedObjects
        self.insertedObjectIDs = []
        self.refreshedObjects = refreshedObjects
        self.invalidatedAllObjects = invalidatedAllObjects
        self.isMerge = false
    }

    /// A merge's notification: `insertedObjectIDs` are registered in `context` when read.
    init(mergedInto context: ManagedObjectContext, refreshedObjects: Set<ManagedObject>,
         deletedObjects: Set<ManagedObject>, insertedObjectIDs: Set<ManagedObjectID>) {
        self.updatedObjects = []
        self.deletedObjects = deletedObjects
        self.ownInsertedObjects = []
        self.insertedObjectIDs = insertedObjectIDs
        self.refreshedObjects = refreshedObjects
        self.invalidatedAllObjects = false
        self.isMerge = true
        self.context = context
    }

    public static let userInfoKey = "changes"
    var isEmpty: Bool {
        updatedObjects.isEmpty && deletedObjects.isEmpty && ownInsertedObjects.isEmpty && insertedObjectIDs.isEmpty
            && refreshedObjects.isEmpty && !invalidatedAllObjects
    }
}

/// What a merge did, in full, told to the context's merge followers
/// (fetched-results controllers) directly, not through the notification
/// center. Unlike the public notification it lists the objects another save
/// updated or deleted that this context never registered (a controller over a
/// batched fetch holds such IDs), registered faults among the updated ones,
/// and the entities whose rows changed without a list of which. Told only
/// whenever any of it is non-empty.
struct ContextMerge {
    /// Registered objects the merge refreshed (faults included).
    let updatedObjects: Set<ManagedObject>
    /// Registered objects the merge deleted.
    let deletedObjects: Set<ManagedObject>
    /// Objects another save inserted, by ID.
    let insertedObjectIDs: Set<ManagedObjectID>
    /// Objects another save updated or deleted that this context had not registered.
    let updatedObjectIDs: Set<ManagedObjectID>
    let deletedObjectIDs: Set<ManagedObjectID>
    /// Entities whose rows changed without a list of which (a batch request
    /// that returned no IDs, derived values rewritten by the store), by
    /// entity index.
    let invalidatedEntities: Set<Int>

    var isEmpty: Bool {
        updatedObjects.isEmpty && deletedObjects.isEmpty && insertedObjectIDs.isEmpty
            && updatedObjectIDs.isEmpty && deletedObjectIDs.isEmpty && invalidatedEntities.isEmpty
    }
}

extension Notification.Name {
    /// Posted on a context's queue after it merged other contexts' saves
    /// (when they changed what it holds), after `reset()`, and for its own
    /// changes while `reportsUnsavedChanges` is on; `object` is the context,
    /// `userInfo` holds a `ContextObjectsDidChange` under
    /// `ContextObjectsDidChange.userInfoKey`.
    public static let managedObjectContextObjectsDidChange = Notification.Name("FaultlineManagedObjectContextObjectsDidChange")
}

/// What follows a context's merges in full (a fetched-results controller),
/// told on the context's queue before the public notification is posted.
protocol ContextMergeFollower: AnyObject {
    func contextDidMerge(_ merge: ContextMerge)
}

/// A merge follower, held weakly: a controller that goes stops following.
struct WeakMergeFollower {
    weak var follower: (any ContextMergeFollower)?
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
    /// context.
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
        let merge = ContextMerge(
            updatedObjects: updated.subtracting(deleted), deletedObjects: deleted, insertedObjectIDs: inserted,
            updatedObjectIDs: updatedIDs.subtracting(deletedIDs), deletedObjectIDs: deletedIDs, invalidatedEntities: invalidated)
        if !mergeFollowers.isEmpty, !merge.isEmpty {
            mergeFollowers.removeAll { $0.follower == nil }
            for follower in mergeFollowers { follower.follower?.contextDidMerge(merge) }
        }
        // An object inserted and deleted by saves merged together never reached this context.
        let gone = deletedIDs.union(deleted.lazy.map(\.objectID))
        let change = ContextObjectsDidChange(
            mergedInto: self, refreshedObjects: shown.subtracting(deleted), deletedObjects: deleted,
            insertedObjectIDs: gone.isEmpty ? inserted : inserted.subtracting(gone))
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
