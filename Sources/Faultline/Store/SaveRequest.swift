import Foundation

/// The changes of one save, as the coordinator writes them: rows to insert,
/// update and delete, join-table rows and ordering positions, and the
/// uniqueness constraints to check first. Object references may be temporary
/// IDs; the coordinator resolves them to the keys it reserves.
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
    }

    struct Delete: Sendable {
        let id: ManagedObjectID
        let version: Int64
    }

    struct JoinRow: Sendable, Hashable {
        let table: String
        let firstColumn: String
        let secondColumn: String
        let first: ManagedObjectID
        let second: ManagedObjectID
    }

    struct Position: Sendable {
        let table: String
        let column: String
        /// The row holding the position: a child, or a join row (`joinRow`).
        let id: ManagedObjectID
        let joinRow: JoinRow?
        let position: Int
    }

    /// A hidden to-many key (no inverse) written into the member's row.
    struct KeyAssignment: Sendable {
        let table: String
        let column: String
        let row: ManagedObjectID
        let value: ManagedObjectID?
    }

    /// One uniqueness constraint of one inserted or changed object.
    struct UniquenessCheck: Sendable {
        let id: ManagedObjectID
        let table: String
        let columns: [String]
        let values: [AttributeValue]
        /// `Z_ENT IN (…)` for a sub-entity's constraint.
        let entityFilter: String?
        /// Property names, for error messages.
        let constraint: [String]
    }

    var inserts: [Insert] = []
    var updates: [Update] = []
    var deletes: [Delete] = []
    var joinInserts: [JoinRow] = []
    var joinDeletes: [JoinRow] = []
    var positions: [Position] = []
    var keyAssignments: [KeyAssignment] = []
    var uniquenessChecks: [UniquenessCheck] = []

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
}

/// What a successful save wrote.
struct SaveResult: Sendable {
    /// Temporary ID → permanent ID of each inserted object, for references
    /// between objects inserted together.
    var permanentIDs: [ManagedObjectID: ManagedObjectID] = [:]
    /// The permanent ID of each insert, in the request's order: what the
    /// inserts themselves use, without hashing.
    var insertedIDs: [ManagedObjectID] = []
    /// New `Z_OPT` of each updated object (inserted rows start at 1).
    var versions: [ManagedObjectID: Int64] = [:]
    /// Rows re-read after the write, for objects with derived attributes.
    var refreshed: [ManagedObjectID: RowSnapshot] = [:]
    /// The snapshot the row cache now holds for each insert, in the request's
    /// order (nil where none was stored): the context commits the same one
    /// instead of building it again.
    var insertedSnapshots: [RowSnapshot?] = []
    /// Entities whose derived attributes the triggers may have rewritten:
    /// the row cache dropped them, the contexts refresh their objects.
    var staleEntities: Set<Int> = []
    /// What the commit changed, as published to the other contexts.
    var changes: StoreChanges?

    /// `id` itself when permanent, else the permanent ID it was given.
    func resolve(_ id: ManagedObjectID) -> ManagedObjectID {
        id.isTemporaryID ? (permanentIDs[id] ?? id) : id
    }
}
