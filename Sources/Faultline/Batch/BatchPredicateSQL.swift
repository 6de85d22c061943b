import Foundation
import FaultlineSQLite

/// The thin adapter between batch requests and the predicate compiler
/// (`PredicateSQLCompiler`, Sources/Faultline/Query/): the rows a batch
/// update or delete touches, as a key-selecting subquery with its bindings.
enum BatchPredicateSQL {
    /// `SELECT t0.Z_PK FROM T t0 <joins> WHERE <predicate> AND <entity filter>`,
    /// for `… WHERE Z_PK IN (…)`. A nil predicate selects every row of the
    /// entity (and of its sub-entities when `includesSubentities`).
    static func keys(
        of entityIndex: Int, matching predicate: FetchPredicate?, includesSubentities: Bool,
        coordinator: PersistentStoreCoordinator, columns: String = "t0.Z_PK"
    ) throws -> (sql: String, bindings: [SQLValue]) {
        let mapping = coordinator.schema.entities[entityIndex]
        var conditions: [String] = []
        var bindings: [SQLValue] = []
        var joins = ""
        if let predicate {
            let compiled: CompiledPredicate
            do {
                compiled = try PredicateSQLCompiler.compile(predicate, entityIndex: entityIndex, schema: coordinator.schema)
            } catch {
                throw BatchError.unsupportedPredicate("\(predicate): \(error)")
            }
            joins = compiled.joins
            conditions.append("(\(compiled.whereClause))")
            bindings = compiled.bindings
        }
        if let filter = entityFilter(entityIndex, includesSubentities: includesSubentities, coordinator: coordinator) {
            conditions.append(filter)
        }
        var sql = "SELECT \(columns) FROM \(mapping.table) t0\(joins)"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        return (sql, bindings)
    }

    /// `t0.Z_ENT IN (…)` when the table holds other entities' rows too.
    static func entityFilter(
        _ entityIndex: Int, includesSubentities: Bool, coordinator: PersistentStoreCoordinator
    ) -> String? {
        let mapping = coordinator.schema.entities[entityIndex]
        let root = coordinator.model.entities[coordinator.model.entities[entityIndex].rootEntityIndex]
        guard root.hierarchyIndexes.count > 1 else { return nil }
        let numbers = includesSubentities ? mapping.entityNumbers : [entityIndex + 1]
        return EntityMapping.entityFilter(numbers, alias: "t0")
    }
}

extension Connection {
    /// Runs a query returning `(Z_PK, Z_ENT)` pairs, as (key, entity index).
    /// A `Z_ENT` that names none of the model's `entityCount` entities (a
    /// damaged store) throws, so the batch rolls back instead of trapping.
    func keyPairs(_ sql: String, _ bindings: [SQLValue], entityCount: Int) throws -> [(key: Int64, entityIndex: Int)] {
        let statement = try cachedStatement(sql)
        // Reset on every exit: left stepping after a throw, the statement would
        // keep its read snapshot and the connection's next write would fail.
        defer { statement.reset() }
        try statement.bind(bindings)
        var pairs: [(key: Int64, entityIndex: Int)] = []
        while try statement.step() {
            let key = statement.int64(at: 0)
            pairs.append((key, try statement.entityIndex(at: 1, primaryKey: key, entityCount: entityCount)))
        }
        return pairs
    }
}
