import FaultlineSQLite

/// A database's actual schema as `sqlite_master` and the table pragmas give
/// it: tables with their columns (name, declared type, primary-key position)
/// and indexes (columns in order, unique, partial). Read by name, never by
/// column order: Core Data's older stores order columns differently.
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
    static let coreDataOnlyTables: Set<String> = ["Z_MODELCACHE", "ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"]
    /// `Z_PRIMARYKEY` rows from here on are Core Data's own (persistent history).
    static let firstFrameworkEntityNumber: Int64 = 16001

    /// Reads every table of `connection` but SQLite's own, `ignoring`, and
    /// tables whose names do not start with Z: Core Data names every table it
    /// makes Z… (its history tables, A…, are in `ignoring`), so any other is
    /// an app's own, kept beside Core Data's and none of the model's business.
    static func read(_ connection: Connection, ignoring ignored: Set<String> = coreDataOnlyTables) throws -> SQLiteSchemaSnapshot {
        var snapshot = SQLiteSchemaSnapshot()
        let names = try connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        for row in names {
            guard case .text(let table)? = row.first, !ignored.contains(table.uppercased()),
                  table.uppercased().hasPrefix("Z") else { continue }
            var columns: [String: Column] = [:]
            // table_info: cid, name, type, notnull, dflt_value, pk
            for info in try connection.rows("SELECT name, type, pk FROM pragma_table_info(?)", [.text(table)]) {
                guard info.count == 3, case .text(let name) = info[0] else { continue }
                let type: String
                if case .text(let declared) = info[1] { type = declared.uppercased() } else { type = "" }
                let pk: Int64
                if case .integer(let position) = info[2] { pk = position } else { pk = 0 }
                columns[name.uppercased()] = Column(name: name.uppercased(), declaredType: type, primaryKeyPosition: pk)
            }
            snapshot.tables[table.uppercased()] = columns
            // index_list: seq, name, unique, origin, partial
            for index in try connection.rows(
                "SELECT name, \"unique\", partial FROM pragma_index_list(?)", [.text(table)]) {
                guard index.count == 3, case .text(let name) = index[0] else { continue }
                var indexColumns: [String] = []
                for column in try connection.rows(
                    "SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(name)]) {
                    if case .text(let columnName)? = column.first { indexColumns.append(columnName.uppercased()) }
                    else { indexColumns.append("<expression>") }
                }
                snapshot.indexes[name.uppercased()] = Index(
                    name: name.uppercased(), table: table.uppercased(), columns: indexColumns,
                    isUnique: index[1] == .integer(1), isPartial: index[2] == .integer(1))
            }
        }
        return snapshot
    }
}
