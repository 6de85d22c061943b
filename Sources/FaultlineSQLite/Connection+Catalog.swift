import Foundation

/// One row of `sqlite_master`: a table, index, trigger or view and the SQL
/// that created it (NULL for the automatic indexes of UNIQUE constraints).
public struct SchemaObject: Sendable, Equatable {
    public var name: String
    public var table: String
    public var sql: String?
}

/// One column of `pragma_table_info`: the declared type as written (empty
/// when none) and its position in the primary key (0 when not part of it).
public struct TableColumn: Sendable, Equatable {
    public var name: String
    public var declaredType: String
    public var primaryKeyPosition: Int64
}

/// One index of `pragma_index_list`, with its columns in key order; an
/// expression column has no name (nil).
public struct TableIndex: Sendable, Equatable {
    public var name: String
    public var isUnique: Bool
    public var isPartial: Bool
    public var columns: [String?]
}

/// The schema catalog and the schema changes that are plain SQLite, not any
/// one layout's: every layer that reads `sqlite_master` or renames a table
/// does it here, so SQL about SQLite's own schema is written once.
/// Identifiers are quoted wherever SQLite keeps the statement's text of them
/// only transiently; `addColumn` writes a plain identifier bare, because
/// SQLite copies the column definition into the table's stored `CREATE`.
extension Connection {
    // Both readers filter and order in Swift rather than in SQL: a migration
    // reads the catalog several times, and the gate counts its VM steps.

    /// The names of the schema objects of `type` (`table`, `index`, `trigger`),
    /// as stored, ordered; SQLite's own (`sqlite_…`) are left out.
    public func schemaObjectNames(ofType type: String) throws -> [String] {
        try rows("SELECT name FROM sqlite_master WHERE type = ?", [.text(type)]).compactMap { row -> String? in
            guard case .text(let name)? = row.first, !Self.isSQLiteInternal(name) else { return nil }
            return name
        }.sorted()
    }

    /// The schema objects of `type`, ordered by name; SQLite's own
    /// (`sqlite_…`) are left out.
    public func schemaObjects(ofType type: String) throws -> [SchemaObject] {
        try rows("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = ?", [.text(type)]).compactMap { row -> SchemaObject? in
            guard row.count == 3, case .text(let name) = row[0], !Self.isSQLiteInternal(name),
                  case .text(let table) = row[1] else { return nil }
            if case .text(let sql) = row[2] { return SchemaObject(name: name, table: table, sql: sql) }
            return SchemaObject(name: name, table: table, sql: nil)
        }.sorted { $0.name < $1.name }
    }

    /// The indexes SQLite made for tables' `UNIQUE` and composite `PRIMARY KEY`
    /// clauses (`sqlite_autoindex_<table>_<n>`, whose sql is NULL), sorted:
    /// `schemaObjects` leaves them out with SQLite's other own objects.
    public func autoindexNames() throws -> [String] {
        try rows("SELECT name FROM sqlite_master WHERE type = ? AND sql IS NULL", [.text("index")]).compactMap { row in
            guard case .text(let name)? = row.first, name.lowercased().hasPrefix("sqlite_autoindex_") else { return nil }
            return name
        }.sorted()
    }

    /// SQLite reserves names starting `sqlite_` (any case) for its own objects.
    static func isSQLiteInternal(_ name: String) -> Bool {
        name.utf8.count >= 7 && name.prefix(7).lowercased() == "sqlite_"
    }

    /// Whether a table of that name exists; SQLite's names are case-insensitive.
    public func hasTable(named name: String) throws -> Bool {
        try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE",
                   [.text(name)]) != .integer(0)
    }

    /// The columns of `table` in declaration order.
    public func columns(ofTable table: String) throws -> [TableColumn] {
        try rows("SELECT name, type, pk FROM pragma_table_info(?)", [.text(table)]).compactMap { row in
            guard row.count == 3, case .text(let name) = row[0] else { return nil }
            var declared = ""
            if case .text(let type) = row[1] { declared = type }
            var position: Int64 = 0
            if case .integer(let pk) = row[2] { position = pk }
            return TableColumn(name: name, declaredType: declared, primaryKeyPosition: position)
        }
    }

    /// The indexes of `table`, automatic ones included, with their key columns.
    public func indexes(ofTable table: String) throws -> [TableIndex] {
        try rows("SELECT name, \"unique\", partial FROM pragma_index_list(?)", [.text(table)]).compactMap { row in
            guard row.count == 3, case .text(let name) = row[0] else { return nil }
            let columns = try rows("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(name)]).map { column -> String? in
                if case .text(let columnName)? = column.first { return columnName }
                return nil
            }
            return TableIndex(name: name, isUnique: row[1] == .integer(1), isPartial: row[2] == .integer(1), columns: columns)
        }
    }

    /// Drops the `type` (`table`, `index`, `trigger`, `view`) named `name`.
    public func dropSchemaObject(ofType type: SchemaObjectType, named name: String) throws {
        try execute("DROP \(type.rawValue) \(Self.quotedIdentifier(name))")
    }

    public func renameTable(_ table: String, to newName: String) throws {
        try execute("ALTER TABLE \(Self.quotedIdentifier(table)) RENAME TO \(Self.quotedIdentifier(newName))")
    }

    /// Appends a column; `declaredType` is written as given (a type name such as `INTEGER` or `VARCHAR`).
    public func addColumn(named column: String, declaredType: String, toTable table: String) throws {
        let name = Self.isPlainIdentifier(column) ? column : Self.quotedIdentifier(column)
        guard declaredType.allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " || $0 == "(" || $0 == ")" || $0 == "," }) else {
            throw SQLiteError(extendedCode: 1, message: "not a column type: \(declaredType)")
        }
        try execute("ALTER TABLE \(Self.quotedIdentifier(table)) ADD COLUMN \(name) \(declaredType)")
    }

    /// Copies `columns` of every row of `source` into the same columns of `destination`.
    public func copyRows(columns: [String], from source: String, into destination: String) throws {
        let list = columns.map(Self.quotedIdentifier).joined(separator: ", ")
        try execute("INSERT INTO \(Self.quotedIdentifier(destination)) (\(list)) SELECT \(list) FROM \(Self.quotedIdentifier(source))", [])
    }

    /// The first row of `PRAGMA foreign_key_check`, or nil when every
    /// foreign key is satisfied: (table, rowid, parent table, foreign key index).
    public func firstForeignKeyViolation() throws -> [SQLValue]? {
        try rows("PRAGMA foreign_key_check").first
    }

    public static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}

public enum SchemaObjectType: String, Sendable {
    case table = "TABLE", index = "INDEX", trigger = "TRIGGER", view = "VIEW"
}
