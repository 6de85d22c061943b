import FaultlineSQLite

/// What a batch request returns: Core Data's `NSBatch…ResultType`.
public enum BatchResultType: Sendable, Equatable {
    /// Only whether it succeeded.
    case statusOnly
    /// The number of rows the request itself inserted, updated or deleted.
    case count
    /// The IDs of those rows.
    case objectIDs
}

/// Object IDs a batch request changed, for merging into live contexts
/// (`ManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`).
///
/// Inserted keys are kept as ranges per entity (a plain batch insert writes
/// consecutive keys), so a million-row insert holds a few ranges, not a
/// million IDs; `insertedObjectIDs` expands them on demand.
public struct BatchChanges: Sendable {
    let storeIdentifier: UInt32
    /// Inserted keys by concrete entity index.
    var insertedRanges: [(entityIndex: Int, keys: ClosedRange<Int64>)] = []
    public internal(set) var updatedObjectIDs: [ManagedObjectID] = []
    public internal(set) var deletedObjectIDs: [ManagedObjectID] = []
    /// Entities whose rows triggers may have rewritten (derived attributes).
    public internal(set) var staleEntities: Set<Int> = []
    /// Entities whose objects' to-many members a batch insert may have changed
    /// through the inverse to-ones it wrote: a merge re-reads those objects.
    public internal(set) var relinkedEntities: Set<Int> = []

    init(storeIdentifier: UInt32) { self.storeIdentifier = storeIdentifier }

    /// Number of inserted rows.
    public var insertedCount: Int { insertedRanges.reduce(0) { $0 + $1.keys.count } }

    public var insertedObjectIDs: [ManagedObjectID] {
        insertedRanges.flatMap { range in
            range.keys.map { ManagedObjectID(storeIdentifier: storeIdentifier, entityIndex: range.entityIndex, primaryKey: $0) }
        }
    }

    /// Records an inserted key, extending the last range when consecutive.
    mutating func noteInserted(_ key: Int64, entityIndex: Int) {
        if let last = insertedRanges.last, last.entityIndex == entityIndex, last.keys.upperBound &+ 1 == key {
            insertedRanges[insertedRanges.count - 1].keys = last.keys.lowerBound...key
        } else {
            insertedRanges.append((entityIndex, key...key))
        }
    }

    mutating func noteInserted(_ keys: ClosedRange<Int64>, entityIndex: Int) {
        if let last = insertedRanges.last, last.entityIndex == entityIndex, last.keys.upperBound &+ 1 == keys.lowerBound {
            insertedRanges[insertedRanges.count - 1].keys = last.keys.lowerBound...keys.upperBound
        } else {
            insertedRanges.append((entityIndex, keys))
        }
    }
}

/// Deterministic work counters of one batch request.
public struct BatchCounters: Sendable, Equatable {
    public var rowsInserted = 0
    public var rowsUpdated = 0
    public var rowsDeleted = 0
    /// Primary-key blocks reserved from `Z_PRIMARYKEY`.
    public var keyReservations = 0
    /// Rows inserted with the writer's triggers off, their derived attributes
    /// kept by one statement per parent table afterwards (many rows into a
    /// table whose insert triggers all have a set-based form; see "Many rows
    /// inserted at once skip the triggers" in the README): every row of a
    /// request that says its count, a stream's rows after its first 1,000;
    /// 0 when the triggers fired.
    public var rowsInsertedWithoutTriggers = 0
    /// The writer connection's SQLite counters over the request.
    public var sql = SQLiteCounters()
}

/// The outcome of a batch request.
public struct BatchResult: Sendable {
    public let resultType: BatchResultType
    /// Rows the request inserted, updated (an upsert's updates included) or
    /// deleted — not rows changed by delete rules; 0 for `.statusOnly`.
    public let count: Int
    /// The IDs of those rows, for `.objectIDs`; empty otherwise.
    public let objectIDs: [ManagedObjectID]
    /// Everything the request changed, delete rules included.
    public let changes: BatchChanges
    public let counters: BatchCounters

    /// Always true: a failed request throws.
    public var status: Bool { true }
}
