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
/// row, and the reservation falls back to reading `Z_MAX`. A save's keys may
/// also come from the keys earlier saves reserved beyond their own
/// (`SpareKeys`), with no statement at all.
///
/// `floor`: keys start above it even when `Z_MAX` is lower. Rows imported
/// into a Core Data store outside Core Data can leave `Z_MAX` below the
/// largest `Z_PK`; the largest is read once when such a store opens
/// (`CoreDataStoreInspection.keyFloors`), so no save pays for it.
enum PrimaryKeyAllocator {
    /// Reserves `count` keys (at least 1) for the hierarchy whose root entity
    /// has number `rootEntityNumber`, returning the first and last. Call inside
    /// the writer's transaction, so a rolled-back save returns its keys.
    /// With `spare`, the keys come from the writer's spare keys when it has
    /// enough, with no statement; otherwise the reservation takes extra keys
    /// and leaves them there (SpareKeys.swift).
    static func reserve(_ count: Int, rootEntityNumber: Int, floor: Int64 = 0, on connection: Connection,
                        known: KnownKeyCounters? = nil, spare: SpareKeys? = nil) throws -> ClosedRange<Int64> {
        let count = Int64(max(count, 1))
        if let keys = spare?.take(count, rootEntityNumber: rootEntityNumber) { return keys }
        // Too few spare keys for this save: its block starts at the first of
        // them, so none is left as a gap.
        let tooFew = spare?.takeAll(rootEntityNumber: rootEntityNumber)
        let extra = spare?.extraToReserve(rootEntityNumber: rootEntityNumber) ?? 0
        // The known counter is the first attempt's guess; later attempts read Z_MAX.
        var guess = known?[rootEntityNumber]
        for _ in 0..<(guess == nil ? 8 : 9) {
            guard let current = try guess ?? BookkeepingStatements.keyMax(ofEntity: rootEntityNumber, on: connection) else {
                throw StoreError.primaryKeysUnavailable(entityNumber: rootEntityNumber, reason: "Z_PRIMARYKEY has no row for it")
            }
            guess = nil
            // Spare keys run up to Z_MAX as this writer last committed it; when
            // Z_MAX is elsewhere, they are not trusted.
            let base = tooFew.flatMap { $0.upperBound == current ? $0.lowerBound - 1 : nil } ?? max(current, floor)
            if try BookkeepingStatements.moveKeyMax(ofEntity: rootEntityNumber, from: current, to: base + count + extra, on: connection) {
                known?[rootEntityNumber] = base + count + extra
                if extra > 0 { spare?.keep((base + count + 1)...(base + count + extra), rootEntityNumber: rootEntityNumber) }
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
