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

    /// Queues `changes` in every other live context's inbox.
    func broadcast(_ changes: ContextDidSave) {
        let targets = contexts.withLock { list in list.compactMap(\.context) }
        for context in targets where ObjectIdentifier(context) != changes.source {
            context.inbox.withLock { $0.append(changes) }
        }
    }
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
        guard automaticallyMergesChangesFromParent else { return }
        for changes in pending { mergeChanges(fromContextDidSave: changes) }
    }

    /// Merges another context's save: updated objects without local changes
    /// turn into faults (their next access reads the new row), changed ones keep
    /// their changes; deleted objects leave the context.
    public func mergeChanges(fromContextDidSave changes: ContextDidSave) {
        for id in changes.updatedObjectIDs {
            guard let object = registered[id] else { continue }
            refresh(object, mergeChanges: true)
        }
        if !changes.staleEntities.isEmpty {
            for object in registered.values where changes.staleEntities.contains(object.entityIndex) {
                refresh(object, mergeChanges: true)
            }
        }
        for id in changes.deletedObjectIDs {
            guard let object = registered.removeValue(forKey: id) else { continue }
            forgetChanges(of: object)
            object.isDeletedStorage = true
            object.isFaultStorage = true
            object.releaseStorage()
        }
    }
}
