import FaultlineSQLite

/// Hands out primary keys the way Core Data does: per inheritance root, from
/// `Z_PRIMARYKEY.Z_MAX`, a whole block reserved with one compare-and-set
/// update, so inserting a batch costs one round trip rather than one per row.
/// A store whose key table cannot serve throws `StoreError.primaryKeysUnavailable`.
///
/// Keys start above both `Z_MAX` and the largest `Z_PK` in the hierarchy's
/// table: rows imported into a store outside Core Data can leave `Z_MAX`
/// behind, and a key below the largest would collide. The largest key is read
/// in the same statement as `Z_MAX` (a seek to the table's last rowid).
enum PrimaryKeyAllocator {
    /// Reserves `count` keys (at least 1) for the hierarchy whose root entity
    /// has number `rootEntityNumber` and whose rows live in `table`, returning
    /// the first and last. Call inside the writer's transaction, so a
    /// rolled-back save returns its keys.
    static func reserve(_ count: Int, rootEntityNumber: Int, table: String, on connection: Connection) throws -> ClosedRange<Int64> {
        let count = Int64(max(count, 1))
        let entity = SQLValue.integer(Int64(rootEntityNumber))
        for _ in 0..<8 {
            let row = try connection.rows(
                "SELECT Z_MAX, (SELECT max(Z_PK) FROM \(table)) FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [entity]).first
            guard let row, row.count == 2, case .integer(let current) = row[0] else {
                throw StoreError.primaryKeysUnavailable(entityNumber: rootEntityNumber, reason: "Z_PRIMARYKEY has no row for it")
            }
            let base: Int64 = if case .integer(let largest) = row[1] { max(current, largest) } else { current }
            try connection.execute(
                "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
                [.integer(base + count), entity, .integer(current)])
            if connection.changes == 1 { return (base + 1)...(base + count) }
        }
        throw StoreError.primaryKeysUnavailable(entityNumber: rootEntityNumber, reason: "Z_PRIMARYKEY.Z_MAX kept changing")
    }
}
