import FaultlineSQLite

/// Hands out primary keys the way Core Data does: per inheritance root, from
/// `Z_PRIMARYKEY.Z_MAX`, a whole block reserved with one compare-and-set
/// update, so inserting a batch costs one round trip rather than one per row.
/// A store whose key table cannot serve throws `StoreError.primaryKeysUnavailable`.
///
/// `floor`: keys start above it even when `Z_MAX` is lower. Rows imported
/// into a Core Data store outside Core Data can leave `Z_MAX` below the
/// largest `Z_PK`; the largest is read once when such a store opens
/// (`CoreDataStoreInspection.keyFloors`), so no save pays for it.
enum PrimaryKeyAllocator {
    /// Reserves `count` keys (at least 1) for the hierarchy whose root entity
    /// has number `rootEntityNumber`, returning the first and last. Call inside
    /// the writer's transaction, so a rolled-back save returns its keys.
    static func reserve(_ count: Int, rootEntityNumber: Int, floor: Int64 = 0, on connection: Connection) throws -> ClosedRange<Int64> {
        let count = Int64(max(count, 1))
        for _ in 0..<8 {
            guard let current = try BookkeepingStatements.keyMax(ofEntity: rootEntityNumber, on: connection) else {
                throw StoreError.primaryKeysUnavailable(entityNumber: rootEntityNumber, reason: "Z_PRIMARYKEY has no row for it")
            }
            let base = max(current, floor)
            if try BookkeepingStatements.moveKeyMax(ofEntity: rootEntityNumber, from: current, to: base + count, on: connection) {
                return (base + 1)...(base + count)
            }
        }
        throw StoreError.primaryKeysUnavailable(entityNumber: rootEntityNumber, reason: "Z_PRIMARYKEY.Z_MAX kept changing")
    }
}
