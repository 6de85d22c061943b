import Foundation

/// The changes of one save, as the coordinator writes them: rows to insert,
/// update and delete, join-table rows and ordering positions, and the
/// uniqueness constraints to check first — in the model's terms (entity,
/// attribute, relationship and constraint indexes, values by slot); the
/// store's plans turn them into statements. Object references may be
/// temporary IDs; the coordinator resolves them to the keys it reserves.
struct SaveRequest: Sendable {
    struct Insert: Sendable {
        let id: ManagedObjectID
        /// Every attribute value, by attribute index.
        let values: AttributeValues
        /// To-one destinations, by relationship index (windows on storage
        /// shared by the request's inserts: no array of its own per insert).
        let toOne: ToOneKeys
    }

    struct Update: Sendable {
        let id: ManagedObjectID
        /// The version read (`Z_OPT`); the update succeeds only if it is unchanged.
        let version: Int64
        let attributes: [(index: Int, value: AttributeValue)]
        let toOne: [(index: Int, destination: ManagedObjectID?)]
        /// Changed to-many relationships, by index: filled only for a store
        /// that records persistent history, whose change rows name them.
        var changedToMany: [Int] = []
        /// The whole row after the update, when the object held it (not a
        /// fault): the row cache takes it, so another context merging the
        /// update reads the new values without a statement.
        var row: (values: AttributeValues, toOne: ToOneKeys)?
    }

    struct Delete: Sendable {
        let id: ManagedObjectID
        let version: Int64
    }

    /// A many-to-many row, named by the relationship of the side that
    /// recorded it; `first` and `second` in the order of the join table's
    /// columns (EntityWriteStatements, invariant 3).
    struct JoinRow: Sendable {
        let entityIndex: Int
        let relationship: Int
        let first: ManagedObjectID
        let second: ManagedObjectID
    }

    /// A member's position in an ordered to-many of `owner`.
    struct Position: Sendable {
        let entityIndex: Int
        let relationship: Int
        let owner: ManagedObjectID
        let member: ManagedObjectID
        let position: Int
    }

    /// A hidden to-many key (no inverse) written into the member's row:
    /// relationship `relationship` of entity `entityIndex` now holds `member`
    /// for `owner`, or for nobody.
    struct KeyAssignment: Sendable {
        let entityIndex: Int
        let relationship: Int
        let member: ManagedObjectID
        let owner: ManagedObjectID?
    }

    /// One uniqueness constraint of one inserted or changed object: the
    /// constraint's index among its entity's, and its stored values in the
    /// order of `EntityWriteStatements.Uniqueness.properties`.
    struct UniquenessCheck: Sendable {
        let id: ManagedObjectID
        let constraint: Int
        let values: [AttributeValue]
    }

    var inserts: [Insert] = []
    /// Whether the committed changes carry the inserts' permanent IDs: only
    /// a context with children needs them (they adopt the IDs before merging),
    /// and carrying them kept the request's buffers from being reused.
    var sharesPromotions = false
    var updates: [Update] = []
    var deletes: [Delete] = []
    var joinInserts: [JoinRow] = []
    var joinDeletes: [JoinRow] = []
    var positions: [Position] = []
    var keyAssignments: [KeyAssignment] = []
    var uniquenessChecks: [UniquenessCheck] = []
    /// The saving context's `transactionAuthor` and `name`, for persistent history.
    var author: String?
    var contextName: String?

    var isEmpty: Bool {
        inserts.isEmpty && updates.isEmpty && deletes.isEmpty && joinInserts.isEmpty && joinDeletes.isEmpty
            && positions.isEmpty && keyAssignments.isEmpty
    }
}

/// A conflict found while saving; the context resolves it by merge policy.
public enum SaveConflict: Sendable, Equatable {
    /// The row changed (or vanished, `storeVersion` nil) since the object read it
    /// (`expectedVersion` 0: the object never read it, a fault changed only through an inverse).
    case optimisticLocking(ManagedObjectID, expectedVersion: Int64, storeVersion: Int64?)
    /// Another row already holds the object's values of a uniqueness constraint.
    /// `existing` is a temporary ID when the other object is unsaved in the same context.
    case uniqueness(ManagedObjectID, existing: ManagedObjectID, constraint: [String])
    /// A child context's save: the parent context changed (`parentDeleted`:
    /// deleted) the object since the child read it.
    case parentContext(ManagedObjectID, parentDeleted: Bool)

    var isUniqueness: Bool {
        if case .uniqueness = self { return true }
        return false
    }
}

/// What a successful save wrote.
struct SaveResult: Sendable {
    /// The permanent ID of each insert with the ID it had, for references
    /// between objects inserted together.
    var promoted = PromotedIDs()
    /// The permanent ID of each insert, in the request's order: what the
    /// inserts themselves use, without hashing.
    var insertedIDs: [ManagedObjectID] { promoted.permanent }
    /// Rows re-read after the write, for objects with derived attributes.
    var refreshed: [ManagedObjectID: RowSnapshot] = [:]
    /// The rows the save gave the row cache, the inserts' first in the
    /// request's order (an insert of an entity in `changes.staleEntities` was
    /// not stored): the context commits the same snapshots instead of building
    /// them again. The very list the row cache took, shared, not a copy.
    var cachedRows: [KeyedSnapshot] = []
    /// What the commit changed, as published to the other contexts; its
    /// `staleEntities` are the entities whose derived attributes the triggers
    /// may have rewritten (the row cache dropped them, the context refreshes
    /// its objects of them).
    var changes: StoreChanges?
    /// The key of the persistent-history transaction the save recorded.
    var historyTransaction: Int64?

    /// The result with the changes its commit published. Built from the
    /// consumed fields: a mutated local was copied whole on its way out.
    /// Every stored field is listed here: the memberwise initializer would
    /// give a new one, left out, its default without a word.
    consuming func publishing(_ changes: StoreChanges?) -> SaveResult {
        SaveResult(promoted: promoted, refreshed: refreshed, cachedRows: cachedRows, changes: changes,
                   historyTransaction: historyTransaction)
    }
}
