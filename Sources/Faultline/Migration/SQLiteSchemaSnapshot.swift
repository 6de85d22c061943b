import FaultlineSQLite

/// A database's actual schema as `sqlite_master` and the table pragmas give
/// it: tables with their columns (name, declared type, primary-key position)
/// and indexes (columns in order, unique, partial). Read by name, never by
/// column order: Core Data's older stores order columns differently.
/// It sits with the migration, the lowest layer that reads it (to tell a
/// table's `UNIQUE` clause from the index it stands for, `UniqueClauseIndexes`);
/// the Core Data store matcher above reads it too.
struct SQLiteSchemaSnapshot: Sendable, Equatable {
    struct Column: Sendable, Hashable {
        let name: String
        let declaredType: String
        let primaryKeyPosition: Int64
    }

    struct Index: Sendable, Hashable {
        let name: String
        let table: String
        let columns: [String]
        let isUnique: Bool
        let isPartial: Bool

        var definition: String {
            "(\(columns.joined(separator: ", ")))" + (isUnique ? " UNIQUE" : "") + (isPartial ? " partial" : "")
        }
    }

    /// Table name → columns by name.
    var tables: [String: [String: Column]] = [:]
    /// Index name → index.
    var indexes: [String: Index] = [:]

    /// Tables Core Data keeps beside the model's: its model archive and the
    /// persistent-history tables (entities 16001-16003 in Z_PRIMARYKEY).
    static let coreDataOnlyTables = Set(["Z_MODELCACHE"] + SchemaRecord.historyTables)

    /// Reads every table of `connection` but SQLite's own, `ignoring`, and
    /// tables whose names do not start with Z: Core Data names every table it
    /// makes Z… (its history tables, A…, are in `ignoring`), so any other is
    /// an app's own, kept beside Core Data's and none of the model's business.
    static func read(_ connection: Connection, ignoring ignored: Set<String> = coreDataOnlyTables) throws -> SQLiteSchemaSnapshot {
        var snapshot = SQLiteSchemaSnapshot()
        for table in try connection.schemaObjectNames(ofType: "table") {
            guard !ignored.contains(table.uppercased()), table.uppercased().hasPrefix("Z") else { continue }
            var columns: [String: Column] = [:]
            for column in try connection.columns(ofTable: table) {
                columns[column.name.uppercased()] = Column(
                    name: column.name.uppercased(), declaredType: column.declaredType.uppercased(),
                    primaryKeyPosition: column.primaryKeyPosition)
            }
            snapshot.tables[table.uppercased()] = columns
            for index in try connection.indexes(ofTable: table) {
                snapshot.indexes[index.name.uppercased()] = Index(
                    name: index.name.uppercased(), table: table.uppercased(),
                    columns: index.columns.map { $0?.uppercased() ?? "<expression>" },
                    isUnique: index.isUnique, isPartial: index.isPartial)
            }
        }
        return snapshot
    }
}
