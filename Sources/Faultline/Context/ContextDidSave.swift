import Foundation

/// What one context's save changed, by object ID: the payload of the did-save
/// notification and what other contexts merge.
public struct ContextDidSave: Sendable {
    public let insertedObjectIDs: Set<ManagedObjectID>
    public let updatedObjectIDs: Set<ManagedObjectID>
    public let deletedObjectIDs: Set<ManagedObjectID>
    /// Entities whose rows store triggers may have rewritten (derived attributes).
    let staleEntities: Set<Int>
    let source: ObjectIdentifier
}

extension Notification.Name {
    /// Posted after a context saves; `object` is the context and `userInfo`
    /// holds a `ContextDidSave` under `ContextDidSave.userInfoKey`.
    public static let managedObjectContextDidSave = Notification.Name("FaultlineManagedObjectContextDidSave")
}

extension ContextDidSave {
    public static let userInfoKey = "changes"
}

/// The contexts of a coordinator, held weakly, told about each other's saves.
final class ContextObservers: Sendable {
    private struct WeakContext: @unchecked Sendable {
        weak var context: ManagedObjectContext?
    }

    private let contexts = Locked<[WeakContext]>([])

    func register(_ context: ManagedObjectContext) {
        contexts.withLock { list in
            list.removeAll { $0.context == nil }
            list.append(WeakContext(context: context))
        }
    }

    /// Queues `changes` in every other live context's inbox; a context that
    /// merges automatically gets one merge scheduled on its queue per burst of
    /// saves (the first one into an empty inbox schedules it).
    func broadcast(_ changes: ContextDidSave) {
        let targets = contexts.withLock { list in list.compactMap(\.context) }
        for context in targets where ObjectIdentifier(context) != changes.source {
            let wasEmpty = context.inbox.withLock { inbox in
                defer { inbox.append(changes) }
                return inbox.isEmpty
            }
            if wasEmpty, context.automaticallyMergesChangesFromParent { context.scheduleMerge() }
        }
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
        let pending = inbox.withLock { box -> [ContextDidSave] in
            let drained = box
            box.removeAll()
            return drained
        }
        guard automaticallyMergesChangesFromParent, !pending.isEmpty else { return }
        var updated = Set<ManagedObject>()
        var deleted = Set<ManagedObject>()
        var inserted = Set<ManagedObjectID>()
        for changes in pending {
            let merged = merge(changes)
            updated.formUnion(merged.updated)
            deleted.formUnion(merged.deleted)
            inserted.formUnion(changes.insertedObjectIDs)
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
    public func mergeChanges(fromContextDidSave changes: ContextDidSave) {
        _ = merge(changes)
    }

    private func merge(_ changes: ContextDidSave) -> (updated: [ManagedObject], deleted: [ManagedObject]) {
        var updated: [ManagedObject] = []
        var deleted: [ManagedObject] = []
        for id in changes.updatedObjectIDs {
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
        for id in changes.deletedObjectIDs {
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
