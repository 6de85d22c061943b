/// One row as read from the store: what the row cache keeps and what a fault
/// is fulfilled from. When it was read is the row cache's to know
/// (`RowCache`'s entries keep it): every object's committed snapshot held it
/// too, 8 bytes of the object's size class.
public struct RowSnapshot: Sendable {
    /// The row's concrete entity.
    public let entityIndex: Int
    /// `Z_OPT` when read: the optimistic-locking version.
    public let version: Int64
    /// Stored attribute values by attribute index (`.null` for transient ones).
    public let values: AttributeValues
    /// To-one destinations by relationship index, as IDs; nil where there is no
    /// destination (or the relationship is to-many).
    public let toOne: ToOneKeys

    init(entityIndex: Int, version: Int64, values: AttributeValues, toOne: ToOneKeys) {
        self.entityIndex = entityIndex
        self.version = version
        self.values = values
        self.toOne = toOne
    }
}

/// A row's snapshot with its ID, as lists of rows hold them (a statement's
/// decoded rows, a save's rows for the row cache): a struct, not a tuple,
/// because the elements of an array of tuples are copied and destroyed
/// through the runtime's generic tuple witness, a struct's through its own.
struct KeyedSnapshot: Sendable {
    let id: ManagedObjectID
    var snapshot: RowSnapshot

    /// The snapshot, moved out (an empty one left in its place).
    @inline(__always)
    mutating func takeSnapshot() -> RowSnapshot {
        var taken = RowSnapshot.movedOut
        swap(&taken, &snapshot)
        return taken
    }
}

extension RowSnapshot {
    /// What a snapshot moved out of `DecodedRows` leaves: it owns nothing.
    static var movedOut: RowSnapshot {
        RowSnapshot(entityIndex: 0, version: 0, values: .empty, toOne: .empty)
    }
}

/// The windows of the snapshots one statement decodes.
struct SnapshotArena {
    var values: RowArena<AttributeValue>
    var toOnes: RowArena<ManagedObjectID?>

    /// `rows`: the windows the first chunks are sized for.
    init(firstChunk rows: Int = 4) {
        values = RowArena(firstChunk: rows)
        toOnes = RowArena(firstChunk: rows)
    }
}
