import Foundation
import FaultlineSQLite

/// Every statement a batch update or delete runs, built from the model's
/// mappings: the rows a request touches (its predicate through the predicate
/// compiler, `PredicateSQLCompiler` in Query/, as a key-selecting subquery),
/// the update itself, and the delete rules' reads and writes. Key lists are
/// bound as one JSON array (`jsonKeyList`), so each text depends only on the
/// tables and columns involved and is prepared once per connection
/// (`cachedStatement`), however many keys a level of the cascade holds.
/// Batch inserts have their own plan (`BatchInsertPlan`).
enum BatchStatements {
    /// `SELECT t0.Z_PK FROM T t0 <joins> WHERE <predicate> AND <entity filter>`,
    /// for `… WHERE Z_PK IN (…)`. A nil predicate selects every row of the
    /// entity (and of its sub-entities when `includesSubentities`).
    static func keys(
        of entityIndex: Int, matching predicate: FetchPredicate?, includesSubentities: Bool,
        store: StoreWriteAccess, columns: String = "t0.Z_PK"
    ) throws -> (sql: String, bindings: [SQLValue]) {
        let mapping = store.schema.entities[entityIndex]
        var conditions: [String] = []
        var bindings: [SQLValue] = []
        var joins = ""
        if let predicate {
            let compiled: CompiledPredicate
            do {
                compiled = try PredicateSQLCompiler.compile(predicate, entityIndex: entityIndex, schema: store.schema,
                                                            marked: store.markedAttributes)
            } catch {
                throw BatchError.unsupportedPredicate("\(predicate): \(error)")
            }
            joins = compiled.joins
            conditions.append("(\(compiled.whereClause))")
            bindings = compiled.bindings
        }
        if let filter = entityFilter(entityIndex, includesSubentities: includesSubentities, store: store) {
            conditions.append(filter)
        }
        var sql = "SELECT \(columns) FROM \(mapping.table) t0\(joins)"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        return (sql, bindings)
    }

    /// `t0.Z_ENT IN (…)` when the table holds other entities' rows too.
    static func entityFilter(
        _ entityIndex: Int, includesSubentities: Bool, store: StoreWriteAccess
    ) -> String? {
        let mapping = store.schema.entities[entityIndex]
        let root = store.model.entities[store.model.entities[entityIndex].rootEntityIndex]
        guard root.hierarchyIndexes.count > 1 else { return nil }
        let numbers = includesSubentities ? mapping.entityNumbers : [entityIndex + 1]
        return EntityMapping.entityFilter(numbers, alias: "t0")
    }

    // MARK: Update

    /// `UPDATE … SET assignments, Z_OPT = Z_OPT + 1 WHERE Z_PK IN (rows) RETURNING Z_PK, Z_ENT`.
    static func update(_ table: String, assignments: [String], rows: String) -> String {
        "UPDATE \(table) SET \((assignments + ["Z_OPT = Z_OPT + 1"]).joined(separator: ", ")) "
            + "WHERE Z_PK IN (\(rows)) RETURNING Z_PK, Z_ENT"
    }

    /// `(Z_PK, Z_ENT)` of the rows `column` of the rows selected by `rows`
    /// points at: a to-one's destinations before a batch update moves it.
    static func destinations(through column: String, of table: String, rows: String, destinationTable: String) -> String {
        "SELECT Z_PK, Z_ENT FROM \(destinationTable) WHERE Z_PK IN (SELECT \(column) FROM \(table) "
            + "WHERE Z_PK IN (\(rows)) AND \(column) IS NOT NULL)"
    }

    /// `(Z_PK, Z_ENT)` of the row of `table` with the bound key, if it exists.
    static func row(in table: String) -> String {
        "SELECT Z_PK, Z_ENT FROM \(table) WHERE Z_PK = ?"
    }

    // MARK: Delete (one bound JSON key list each)

    /// `(Z_PK, Z_ENT)` of the rows of `table` with the listed keys.
    static func rows(of table: String) -> String {
        "SELECT Z_PK, Z_ENT FROM \(table) WHERE Z_PK IN (SELECT value FROM json_each(?))"
    }

    /// `(Z_PK, Z_ENT)` of the destinations of the listed rows' relationship, by its storage.
    static func destinations(of storage: RelationshipStorage, in table: String, destinationTable: String) -> String? {
        switch storage {
        case .foreignKey(let column, _):
            "SELECT Z_PK, Z_ENT FROM \(destinationTable) WHERE Z_PK IN (SELECT \(column) FROM \(table) "
                + "WHERE Z_PK IN (SELECT value FROM json_each(?)) AND \(column) IS NOT NULL)"
        case .destinationKey(let childTable, let column, _, _):
            "SELECT Z_PK, Z_ENT FROM \(childTable) WHERE \(column) IN (SELECT value FROM json_each(?))"
        case .joinTable(let joinTable, let sourceColumn, let destinationColumn, _):
            "SELECT Z_PK, Z_ENT FROM \(destinationTable) WHERE Z_PK IN (SELECT \(destinationColumn) FROM \(joinTable) "
                + "WHERE \(sourceColumn) IN (SELECT value FROM json_each(?)))"
        case .transient:
            nil
        }
    }

    /// Deletes the join rows whose source is one of the listed keys.
    static func deleteJoinRows(_ joinTable: String, sourceColumn: String) -> String {
        "DELETE FROM \(joinTable) WHERE \(sourceColumn) IN (SELECT value FROM json_each(?))"
    }

    /// Clears `column` (and its entity and order columns) where it holds one
    /// of the listed keys, bumping `Z_OPT`; returns the changed rows' `(Z_PK, Z_ENT)`.
    static func nullify(_ table: String, column: String, entityColumn: String?, orderColumn: String?) -> String {
        let assignments = ([column] + [entityColumn, orderColumn].compactMap { $0 }).map { "\($0) = NULL" }
            + ["Z_OPT = Z_OPT + 1"]
        return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(column) IN "
            + "(SELECT value FROM json_each(?)) RETURNING Z_PK, Z_ENT"
    }

    static func deleteRows(of table: String) -> String {
        "DELETE FROM \(table) WHERE Z_PK IN (SELECT value FROM json_each(?))"
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
