// Reads a SQLite database's schema into plain comparable values (tables with
// their columns, indexes with their columns in order, triggers, and the
// `Z_PRIMARYKEY` entity rows), and diffs two such schemas. Both sides of a
// fixture comparison go through the same reader: the store Core Data wrote and
// the database Faultline created, so the comparison is between two real SQLite
// schemas, never between strings of SQL.

import Foundation
import FaultlineSQLite

/// A column as `PRAGMA table_info` reports it.
struct FixtureColumn: Hashable, Sendable, CustomStringConvertible {
    let name: String
    /// The declared type exactly as written in `CREATE TABLE` (`VARCHAR`, `TIMESTAMP`…).
    let declaredType: String
    /// Position in the primary key (1-based), 0 when not part of it.
    let primaryKeyPosition: Int

    var description: String {
        "\(name) \(declaredType)" + (primaryKeyPosition > 0 ? " pk\(primaryKeyPosition)" : "")
    }
}

/// An index as `PRAGMA index_list` / `PRAGMA index_xinfo` report it.
struct FixtureIndex: Hashable, Sendable, CustomStringConvertible {
    let name: String
    let table: String
    /// Key columns in index order; a descending column is written `NAME DESC`.
    let columns: [String]
    let isUnique: Bool
    /// Whether the index has a `WHERE` clause.
    let isPartial: Bool

    var description: String {
        "\(isUnique ? "UNIQUE " : "")\(name) ON \(table) (\(columns.joined(separator: ", ")))"
            + (isPartial ? " WHERE …" : "")
    }
}

/// One `Z_PRIMARYKEY` row without its `Z_MAX` (data, not schema).
struct FixtureEntityRow: Hashable, Sendable, Comparable, CustomStringConvertible {
    let entityNumber: Int64
    let name: String
    let superEntityNumber: Int64

    var description: String { "Z_PRIMARYKEY(\(entityNumber), \(name), super \(superEntityNumber))" }

    static func < (left: Self, right: Self) -> Bool { left.entityNumber < right.entityNumber }
}

/// The schema of one database.
struct FixtureSchema: Sendable {
    /// Columns of every table, by table name.
    var tables: [String: [FixtureColumn]]
    /// Every index (automatic ones of composite primary keys included), by name.
    var indexes: [String: FixtureIndex]
    var triggers: Set<String>
    /// `Z_PRIMARYKEY` rows in entity-number order; empty without that table.
    var entityRows: [FixtureEntityRow]

    /// The schema without the given tables (and their indexes) and without the `Z_PRIMARYKEY` rows whose number is in `entityNumbers`.
    func removing(tables ignored: Set<String>, entityNumbers: ClosedRange<Int64>?) -> FixtureSchema {
        var copy = self
        copy.tables = tables.filter { !ignored.contains($0.key) }
        copy.indexes = indexes.filter { !ignored.contains($0.value.table) }
        if let entityNumbers { copy.entityRows = entityRows.filter { !entityNumbers.contains($0.entityNumber) } }
        return copy
    }
}

/// A failure reading a schema.
struct FixtureSchemaReadError: Error, CustomStringConvertible {
    let description: String
}

enum SQLiteSchemaReader {
    /// Reads the schema of the database open on `connection`.
    static func read(_ connection: Connection) throws -> FixtureSchema {
        var tables: [String: [FixtureColumn]] = [:]
        var indexes: [String: FixtureIndex] = [:]
        let tableNames = try connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
        ).map { try text($0, 0, "sqlite_master.name") }
        for table in tableNames {
            tables[table] = try connection.rows("SELECT name, type, pk FROM pragma_table_info(?)", [.text(table)]).map { row in
                FixtureColumn(name: try text(row, 0, "\(table) column name"),
                              declaredType: try text(row, 1, "\(table) column type"),
                              primaryKeyPosition: Int(try integer(row, 2, "\(table) column pk")))
            }
            let list = try connection.rows("SELECT name, \"unique\", partial FROM pragma_index_list(?)", [.text(table)])
            for row in list {
                let name = try text(row, 0, "\(table) index name")
                let columns = try connection.rows(
                    "SELECT name, \"desc\" FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", [.text(name)]
                ).map { column -> String in
                    // A NULL name is an expression term; keep it visible rather than dropping it.
                    let columnName = (try? text(column, 0, "")) ?? "<expression>"
                    return try integer(column, 1, "\(name) desc") != 0 ? columnName + " DESC" : columnName
                }
                indexes[name] = FixtureIndex(
                    name: name, table: table, columns: columns,
                    isUnique: try integer(row, 1, "\(name) unique") != 0,
                    isPartial: try integer(row, 2, "\(name) partial") != 0)
            }
        }
        let triggers = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'trigger'")
            .map { try text($0, 0, "trigger name") }
        var entityRows: [FixtureEntityRow] = []
        if tables["Z_PRIMARYKEY"] != nil {
            entityRows = try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { row in
                FixtureEntityRow(entityNumber: try integer(row, 0, "Z_ENT"), name: try text(row, 1, "Z_NAME"),
                                 superEntityNumber: try integer(row, 2, "Z_SUPER"))
            }
        }
        return FixtureSchema(tables: tables, indexes: indexes, triggers: Set(triggers), entityRows: entityRows)
    }

    private static func text(_ row: [SQLValue], _ index: Int, _ what: String) throws -> String {
        guard row.indices.contains(index), case .text(let value) = row[index] else {
            throw FixtureSchemaReadError(description: "expected text for \(what), got \(row)")
        }
        return value
    }

    private static func integer(_ row: [SQLValue], _ index: Int, _ what: String) throws -> Int64 {
        guard row.indices.contains(index), case .integer(let value) = row[index] else {
            throw FixtureSchemaReadError(description: "expected an integer for \(what), got \(row)")
        }
        return value
    }
}

/// One way a generated schema differs from a store's. "Store" is the database
/// Core Data wrote, "generated" the one Faultline created.
enum SchemaDifference: Hashable, Sendable, CustomStringConvertible {
    case tableOnlyInStore(String)
    case tableOnlyGenerated(String)
    case columnOnlyInStore(table: String, column: FixtureColumn)
    case columnOnlyGenerated(table: String, column: FixtureColumn)
    case columnDiffers(table: String, store: FixtureColumn, generated: FixtureColumn)
    case indexOnlyInStore(FixtureIndex)
    case indexOnlyGenerated(FixtureIndex)
    case indexDiffers(store: FixtureIndex, generated: FixtureIndex)
    case triggerOnlyInStore(String)
    case triggerOnlyGenerated(String)
    case entityRowOnlyInStore(FixtureEntityRow)
    case entityRowOnlyGenerated(FixtureEntityRow)

    var description: String {
        switch self {
        case .tableOnlyInStore(let table): "table \(table) only in the store"
        case .tableOnlyGenerated(let table): "table \(table) only in the generated schema"
        case .columnOnlyInStore(let table, let column): "column \(table).\(column) only in the store"
        case .columnOnlyGenerated(let table, let column): "column \(table).\(column) only in the generated schema"
        case .columnDiffers(let table, let store, let generated):
            "column \(table).\(store.name): store \(store), generated \(generated)"
        case .indexOnlyInStore(let index): "index \(index) only in the store"
        case .indexOnlyGenerated(let index): "index \(index) only in the generated schema"
        case .indexDiffers(let store, let generated): "index \(store.name): store \(store), generated \(generated)"
        case .triggerOnlyInStore(let name): "trigger \(name) only in the store"
        case .triggerOnlyGenerated(let name): "trigger \(name) only in the generated schema"
        case .entityRowOnlyInStore(let row): "\(row) only in the store"
        case .entityRowOnlyGenerated(let row): "\(row) only in the generated schema"
        }
    }

    /// Every difference between `store` and `generated`: tables by name, columns
    /// by name (order ignored) with declared type and primary-key position,
    /// indexes by name with table, columns in order, uniqueness and partiality,
    /// triggers by name, `Z_PRIMARYKEY` rows by (Z_ENT, Z_NAME, Z_SUPER).
    static func between(store: FixtureSchema, generated: FixtureSchema) -> [SchemaDifference] {
        var result: [SchemaDifference] = []
        for table in Set(store.tables.keys).union(generated.tables.keys).sorted() {
            switch (store.tables[table], generated.tables[table]) {
            case (let storeColumns?, let generatedColumns?):
                let storeByName = Dictionary(storeColumns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
                let generatedByName = Dictionary(generatedColumns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
                for name in Set(storeByName.keys).union(generatedByName.keys).sorted() {
                    switch (storeByName[name], generatedByName[name]) {
                    case (let s?, let g?) where s != g: result.append(.columnDiffers(table: table, store: s, generated: g))
                    case (let s?, nil): result.append(.columnOnlyInStore(table: table, column: s))
                    case (nil, let g?): result.append(.columnOnlyGenerated(table: table, column: g))
                    default: break
                    }
                }
            case (_?, nil): result.append(.tableOnlyInStore(table))
            case (nil, _?): result.append(.tableOnlyGenerated(table))
            case (nil, nil): break
            }
        }
        for name in Set(store.indexes.keys).union(generated.indexes.keys).sorted() {
            switch (store.indexes[name], generated.indexes[name]) {
            case (let s?, let g?) where s != g: result.append(.indexDiffers(store: s, generated: g))
            case (let s?, nil): result.append(.indexOnlyInStore(s))
            case (nil, let g?): result.append(.indexOnlyGenerated(g))
            default: break
            }
        }
        for name in store.triggers.subtracting(generated.triggers).sorted() { result.append(.triggerOnlyInStore(name)) }
        for name in generated.triggers.subtracting(store.triggers).sorted() { result.append(.triggerOnlyGenerated(name)) }
        let storeRows = Set(store.entityRows), generatedRows = Set(generated.entityRows)
        for row in storeRows.subtracting(generatedRows).sorted() { result.append(.entityRowOnlyInStore(row)) }
        for row in generatedRows.subtracting(storeRows).sorted() { result.append(.entityRowOnlyGenerated(row)) }
        return result
    }
}
