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

/// One prefetched destination row and the key of the source it belongs to.
struct PrefetchedRow: Sendable {
    let owner: Int64
    let id: ManagedObjectID
    let snapshot: RowSnapshot
}

extension PersistentStoreCoordinator {
    /// Every destination of `relationship` (a to-many of `sourceEntityIndex`)
    /// for the sources with `sourceKeys`, in one statement, cached in the row
    /// cache; in relationship order for an ordered one.
    func prefetchToMany(
        sourceKeys: [Int64], sourceEntityIndex: Int, relationship: CheckedRelationship
    ) throws -> [PrefetchedRow] {
        guard !sourceKeys.isEmpty else { return [] }
        let plan = plans[relationship.destinationEntityIndex]
        let ownerPosition = Int32(plan.selectList.components(separatedBy: ", ").count)
        let keys = "(SELECT value FROM json_each(?))"
        let sql: String
        switch plans[sourceEntityIndex].mapping.relationships[relationship.index] {
        case let .destinationKey(_, column, order, _):
            sql = "SELECT \(plan.selectList), t0.\(column) FROM \(plan.table) t0 WHERE t0.\(column) IN \(keys)"
                + (order.map { " ORDER BY t0.\(column), t0.\($0)" } ?? "")
        case let .joinTable(table, sourceColumn, destinationColumn, order):
            sql = "SELECT \(plan.selectList), j.\(sourceColumn) FROM \(plan.table) t0 JOIN \(table) j"
                + " ON t0.Z_PK = j.\(destinationColumn) WHERE j.\(sourceColumn) IN \(keys)"
                + (order.map { " ORDER BY j.\(sourceColumn), j.\($0)" } ?? "")
        case .foreignKey, .transient:
            return []
        }
        let list = "[" + sourceKeys.map(String.init).joined(separator: ",") + "]"
        let rows = try withReader { connection -> [PrefetchedRow] in
            let statement = try connection.cachedStatement(sql)
            try statement.bind(list, at: 1)
            var rows: [PrefetchedRow] = []
            let readAt = DispatchTime.now().uptimeNanoseconds
            while try statement.step() {
                guard let (id, snapshot) = decodeRow(statement, plan: plan, readAt: readAt) else { continue }
                rows.append(PrefetchedRow(owner: statement.int64(at: ownerPosition), id: id, snapshot: snapshot))
            }
            return rows
        }
        rowCache.store(rows.lazy.map { ($0.id, $0.snapshot) })
        return rows
    }
}
