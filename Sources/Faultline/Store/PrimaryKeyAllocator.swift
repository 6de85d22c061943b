import FaultlineSQLite

/// Hands out primary keys the way Core Data does: per inheritance root, from
/// `Z_PRIMARYKEY.Z_MAX`, a whole block reserved with one compare-and-set
/// update, so inserting a batch costs one round trip rather than one per row.
/// A store whose key table cannot serve throws `StoreError.primaryKeysUnavailable`.
///
/// A writer remembers the counters it last wrote (`KnownKeyCounters`): the
/// compare-and-set tries that value first, so saves in a row pay one
/// statement for their keys rather than a read and a write. A wrong guess (a
/// commit by another connection or process, a save rolled back) changes no
/// row, and the reservation falls back to reading `Z_MAX`.
///
/// `floor`: keys start above it even when `Z_MAX` is lower. Rows imported
/// into a Core Data store outside Core Data can leave `Z_MAX` below the
/// largest `Z_PK`; the largest is read once when such a store opens
/// (`CoreDataStoreInspection.keyFloors`), so no save pays for it.
enum PrimaryKeyAllocator {
    /// Reserves `count` keys (at least 1) for the hierarchy whose root entity
    /// has number `rootEntityNumber`, returning the first and last. Call inside
    /// the writer's transaction, so a rolled-back save returns its keys.
    static func reserve(_ count: Int, rootEntityNumber: Int, floor: Int64 = 0, on connection: Connection,
                        known: KnownKeyCounters? = nil) throws -> ClosedRange<Int64> {
        let count = Int64(max(count, 1))
        // The known counter is the first attempt's guess; later attempts read Z_MAX.
        var guess = known?[rootEntityNumber]
        for _ in 0..<(guess == nil ? 8 : 9) {
            guard let current = try guess ?? BookkeepingStatements.keyMax(ofEntity: rootEntityNumber, on: connection) else {
                throw StoreError.primaryKeysUnavailable(entityNumber: rootEntityNumber, reason: "Z_PRIMARYKEY has no row for it")
            }
            guess = nil
            let base = max(current, floor)
            if try BookkeepingStatements.moveKeyMax(ofEntity: rootEntityNumber, from: current, to: base + count, on: connection) {
                known?[rootEntityNumber] = base + count
                return (base + 1)...(base + count)
            }
        }
        throw StoreError.primaryKeysUnavailable(entityNumber: rootEntityNumber, reason: "Z_PRIMARYKEY.Z_MAX kept changing")
    }
}

/// The key counters a writer last wrote, by root entity number: guesses for
/// `PrimaryKeyAllocator.reserve`. Read and written only inside the writer's
/// transaction, under its lock.
final class KnownKeyCounters: @unchecked Sendable {
    /// By root entity number; grown on first use, so a save pays no hashing.
    private var known: [Int64?] = []
    /// Core Data's own counters (persistent history, 16001 on), which would
    /// grow the array to thousands of unused entries.
    private var framework: [Int: Int64] = [:]

    subscript(entityNumber: Int) -> Int64? {
        get {
            if entityNumber >= Int(BookkeepingStatements.firstFrameworkEntityNumber) { return framework[entityNumber] }
            return entityNumber >= 0 && entityNumber < known.count ? known[entityNumber] : nil
        }
        set {
            guard entityNumber >= 0 else { return }
            if entityNumber >= Int(BookkeepingStatements.firstFrameworkEntityNumber) { return framework[entityNumber] = newValue }
            if entityNumber >= known.count { known += Array(repeating: nil, count: entityNumber + 1 - known.count) }
            known[entityNumber] = newValue
        }
    }
}
