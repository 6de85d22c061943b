import Foundation

/// What a context merged, by object ID: the payload of the did-merge
/// notification (Core Data's `NSManagedObjectContextDidMergeChangesObjectIDs`),
/// posted after every merge of other contexts' saves — automatic,
/// `mergeChanges(fromContextDidSave:)` or a history transaction's — that
/// changed anything, whatever this context held. IDs only, so an observer
/// may keep it and read it on any queue.
public struct ContextDidMergeChanges: Sendable, Equatable {
    /// The rows the merged saves inserted.
    public let insertedObjectIDs: Set<ManagedObjectID>
    /// The rows they updated (registered in this context or not), deleted ones left out.
    public let updatedObjectIDs: Set<ManagedObjectID>
    /// The rows they deleted.
    public let deletedObjectIDs: Set<ManagedObjectID>
    /// The objects of this context the merge refreshed, whose values it had shown.
    public let refreshedObjectIDs: Set<ManagedObjectID>

    public static let userInfoKey = "mergedChanges"
}

extension Notification.Name {
    /// Posted on a context's queue after it merged other contexts' saves,
    /// after its objects-did-change notification; `object` is the context,
    /// `userInfo` holds a `ContextDidMergeChanges` under
    /// `ContextDidMergeChanges.userInfoKey`.
    public static let managedObjectContextDidMergeChangesObjectIDs =
        Notification.Name("FaultlineManagedObjectContextDidMergeChangesObjectIDs")
}
