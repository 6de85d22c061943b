import Foundation
import FaultlineSQLite

// Prefetching: the destinations of a to-many relationship for any number of
// sources in one statement. The source keys are bound as one JSON array and
// read back through `json_each(?)`, so the statement text never changes with
// the number of parents and SQLite's bound-variable limit never applies
// (Core Data binds a temporary integer-array table for the same purpose):
//
//   SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, …, t0.ZAUTHOR FROM ZBOOK t0
//    WHERE t0.ZAUTHOR IN (SELECT value FROM json_each(?))
//   SELECT t0.Z_ENT, …, j.Z_3BOOKS FROM ZSHELF t0 JOIN Z_3SHELVES j ON t0.Z_PK = j.Z_5SHELVES
//    WHERE j.Z_3BOOKS IN (SELECT value FROM json_each(?))
//
// To-one destinations go through `rows(for:)`, the batch-fault statement.

/// Prefetched destination rows and, at the same positions, the keys of the
/// sources they belong to. Apart rather than as triples: the rows go to the
/// row cache as they are, with no per-row copy into pairs.
struct PrefetchedRows: Sendable {
    var rows = DecodedRows()
    var owners: [Int64] = []
}

extension PersistentStoreCoordinator {
    /// Every destination of `relationship` (a to-many of `sourceEntityIndex`)
    /// for the sources with `sourceKeys`, in one statement, cached in the row
    /// cache; in relationship order for an ordered one.
    func prefetchToMany(
        sourceKeys: [Int64], sourceEntityIndex: Int, relationship: CheckedRelationship
    ) throws -> PrefetchedRows {
        guard !sourceKeys.isEmpty,
              let (sql, ownerPosition) = reads[sourceEntityIndex].toMany[relationship.index].map({ ($0.prefetch, $0.ownerPosition) })
        else { return PrefetchedRows() }
        let plan = plans[relationship.destinationEntityIndex]
        let readAt = RowCache.clock
        let prefetched = try withReader { connection -> PrefetchedRows in
            let statement = try connection.cachedStatement(sql)
            try statement.bind(jsonKeyList(sourceKeys), at: 1)
            var prefetched = PrefetchedRows()
            var arena = SnapshotArena()
            while try statement.step() {
                guard decodeRow(statement, plan: plan, arena: &arena, into: &prefetched.rows) else { continue }
                prefetched.owners.append(statement.int64(at: ownerPosition))
            }
            return prefetched
        }
        cache(prefetched.rows, readAt: readAt)
        return prefetched
    }
}
