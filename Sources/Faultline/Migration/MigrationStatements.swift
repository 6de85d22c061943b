import Foundation
import FaultlineSQLite

/// Every statement a lightweight migration runs over entity data, built from
/// the migration's plans (`TablePlan`, `EntityCopy`, `RelationshipTransfer`):
/// the planners decide what moves where, this file alone writes how in SQL.
/// Table and column names come from the compiled old and new schemas; values
/// from the model (defaults) are bound; entity numbers are integers the
/// model assigns. The old row is aliased `src` wherever a column value is an
/// expression over it (`ColumnValue`). A migration runs each statement once,
/// so nothing here is cached; the derived-attribute recomputation has its own
/// builder (`DerivedRecomputeStatements`).
enum MigrationStatements {
    // MARK: Column values over the old row

    static func oldColumn(_ column: String) -> ColumnValue { ColumnValue(sql: "src.\(column)") }
    static func oldColumn(_ column: String, orBound value: SQLValue) -> ColumnValue {
        ColumnValue(sql: "COALESCE(src.\(column), ?)", bindings: [value])
    }
    static func bound(_ value: SQLValue) -> ColumnValue { ColumnValue(sql: "?", bindings: [value]) }
    static func entityNumber(_ number: Int) -> ColumnValue { ColumnValue(sql: String(number)) }
    static let null = ColumnValue(sql: "NULL")

    /// The old row's entity column renumbered: `CASE … WHEN old THEN new … END`.
    static func renumbered(oldColumn column: String, _ moves: [(old: Int, new: Int)]) -> ColumnValue {
        ColumnValue(sql: moves.isEmpty ? "NULL" : "CASE src.\(column) \(cases(moves)) ELSE NULL END")
    }

    /// `WHEN old THEN new …` for a `CASE` over an entity number.
    private static func cases(_ moves: [(old: Int, new: Int)]) -> String {
        moves.map { "WHEN \($0.old) THEN \($0.new)" }.joined(separator: " ")
    }

    /// The smallest destination key paired with the old row, from `pairs`.
    static func firstDestination(in pairs: String) -> ColumnValue {
        ColumnValue(sql: "(SELECT p.d FROM (\(pairs)) p WHERE p.s = src.Z_PK ORDER BY p.d LIMIT 1)")
    }

    /// The smallest source key paired with the old row, from `pairs`.
    static func firstSource(in pairs: String) -> ColumnValue {
        ColumnValue(sql: "(SELECT p.s FROM (\(pairs)) p WHERE p.d = src.Z_PK ORDER BY p.s LIMIT 1)")
    }

    // MARK: Relationship pairs (columns s and d) over old tables

    static func pairs(foreignKey column: String, in table: String) -> String {
        "SELECT Z_PK AS s, \(column) AS d FROM \(table) WHERE \(column) IS NOT NULL"
    }

    static func pairs(destinationKey column: String, in table: String) -> String {
        "SELECT \(column) AS s, Z_PK AS d FROM \(table) WHERE \(column) IS NOT NULL"
    }

    static func pairs(joinTable table: String, source: String, destination: String) -> String {
        "SELECT \(source) AS s, \(destination) AS d FROM \(table)"
    }

    static func swapped(_ pairs: String) -> String { "SELECT q.d AS s, q.s AS d FROM (\(pairs)) q" }

    static func fillJoinTable(_ table: String, source: String, destination: String, from pairs: String) -> String {
        "INSERT OR IGNORE INTO \(table) (\(source), \(destination)) SELECT p.s, p.d FROM (\(pairs)) p"
    }

    // MARK: Rows

    /// Copies one entity's old rows into a new table.
    static func copyRows(_ copy: EntityCopy, into table: String, columns: [String], from oldTable: String,
                         on connection: Connection) throws {
        let values = columns.compactMap { copy.values[$0] }
        try connection.execute(
            "INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT "
                + values.map(\.sql).joined(separator: ", ") + " FROM \(oldTable) AS src\(oldRows(of: copy))",
            values.flatMap(\.bindings))
    }

    /// Sets `assignments` (column → value over the row itself, aliased `src`)
    /// on one entity's rows of a table kept in place.
    static func updateInPlace(_ copy: EntityCopy, table: String, assignments: [(column: String, value: ColumnValue)],
                              on connection: Connection) throws {
        try connection.execute(
            "UPDATE \(table) AS src SET \(assignments.map { "\($0.column) = \($0.value.sql)" }.joined(separator: ", "))"
                + oldRows(of: copy),
            assignments.flatMap(\.value.bindings))
    }

    private static func oldRows(of copy: EntityCopy) -> String {
        copy.oldShared ? " WHERE src.Z_ENT = \(copy.oldEntity.number)" : ""
    }

    static func deleteRows(ofEntities numbers: [Int], from table: String, on connection: Connection) throws {
        try connection.execute("DELETE FROM \(table) WHERE " + EntityMapping.entityFilter(numbers, alias: nil))
    }

    static func renumberEntities(in table: String, _ moves: [(old: Int, new: Int)], on connection: Connection) throws {
        try connection.execute("UPDATE \(table) SET Z_ENT = CASE Z_ENT \(cases(moves)) ELSE Z_ENT END")
    }

    /// Fills a to-one's entity column from the destination rows' `Z_ENT`, for the rows of `entityNumber`.
    static func fillEntityColumn(_ entityColumn: String, keyColumn: String, in table: String, destinationTable: String,
                                 entityNumber: Int, on connection: Connection) throws {
        try connection.execute(
            "UPDATE \(table) SET \(entityColumn) = (SELECT d.Z_ENT FROM \(destinationTable) d "
                + "WHERE d.Z_PK = \(table).\(keyColumn)) WHERE \(keyColumn) IS NOT NULL AND Z_ENT = ?",
            [.integer(Int64(entityNumber))])
    }

    // MARK: Checks before a change

    /// Rows of `table` (those of entity `entityNumber` when given) whose
    /// `column` is NULL; with no column, every such row.
    static func nullCount(in table: String, entityNumber: Int?, column: String?, on connection: Connection) throws -> Int {
        var conditions: [String] = []
        var bindings: [SQLValue] = []
        if let entityNumber {
            conditions.append("Z_ENT = ?")
            bindings.append(.integer(Int64(entityNumber)))
        }
        if let column { conditions.append("\(column) IS NULL") }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        guard case .integer(let count)? = try connection.scalar("SELECT count(*) FROM \(table)\(filter)", bindings) else { return 0 }
        return Int(count)
    }

    /// The rows of `table` (only `entityNumber`'s when shared) whose number of
    /// members in a to-many lies outside `minimum...maximum`; empty rows
    /// pass when `emptyAllowed` (an optional to-many). Nil for a relationship
    /// stored nowhere (transient) or as a to-one.
    static func rowsOutsideCount(
        in table: String, entityNumber: Int?, members storage: RelationshipStorage, minimum: Int, maximum: Int,
        emptyAllowed: Bool, on connection: Connection
    ) throws -> Int? {
        let members: String
        switch storage {
        case .destinationKey(let destination, let column, _, _):
            members = "SELECT count(*) FROM \(destination) m WHERE m.\(column) = s.Z_PK"
        case .joinTable(let join, let sourceColumn, _, _):
            members = "SELECT count(*) FROM \(join) m WHERE m.\(sourceColumn) = s.Z_PK"
        case .foreignKey, .transient:
            return nil
        }
        var bindings: [SQLValue] = [.integer(Int64(minimum)), .integer(Int64(maximum))]
        var filter = ""
        if let entityNumber {
            filter = " WHERE s.Z_ENT = ?3"
            bindings.append(.integer(Int64(entityNumber)))
        }
        let sql = "SELECT count(*) FROM (SELECT (\(members)) AS n FROM \(table) s\(filter)) "
            + "WHERE (n < ?1\(emptyAllowed ? " AND n > 0" : "")) OR n > ?2"
        guard case .integer(let count)? = try connection.scalar(sql, bindings) else { return 0 }
        return Int(count)
    }

    /// `Z_PK` and `column` of every row where it is not NULL: the values a
    /// conversion of their stored form rewrites one by one.
    static func keyedValues(of column: String, in table: String, on connection: Connection) throws -> [[SQLValue]] {
        try connection.rows("SELECT Z_PK, \(column) FROM \(table) WHERE \(column) IS NOT NULL")
    }

    /// Sets `column` of the row whose `Z_PK` is `key`.
    static func setValue(_ value: SQLValue, of column: String, in table: String, key: SQLValue, on connection: Connection) throws {
        try connection.execute("UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?", [value, key])
    }

    /// Up to `limit` value tuples of `columns` held by more than one row, as
    /// a unique index sees them (NULLs never equal), with how many rows hold
    /// each: within `entityNumbers` when given and `condition` (an index's
    /// partial-index clause from the schema) when given.
    static func duplicateGroups(in table: String, columns: [String], entityNumbers: [Int]? = nil, condition: String? = nil,
                                limit: Int = 20, on connection: Connection) throws -> [(values: [SQLValue], count: Int)] {
        let list = columns.joined(separator: ", ")
        var conditions = columns.map { "\($0) IS NOT NULL" }
        if let entityNumbers { conditions.append(EntityMapping.entityFilter(entityNumbers, alias: nil)) }
        if let condition { conditions.append(condition) }
        let rows = try connection.rows(
            "SELECT \(list), count(*) FROM \(table) WHERE \(conditions.joined(separator: " AND ")) "
                + "GROUP BY \(list) HAVING count(*) > 1 ORDER BY \(list) LIMIT ?", [.integer(Int64(limit))])
        return rows.compactMap { row in
            guard case .integer(let count)? = row.last else { return nil }
            return (Array(row.dropLast()), Int(count))
        }
    }
}
