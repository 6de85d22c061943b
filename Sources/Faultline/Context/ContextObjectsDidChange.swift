import Foundation

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
