import Faultline
import FaultlineSQLite
import Foundation

/// What a Core Data store holds, read on a read-only connection: its entities
/// (Z_PRIMARYKEY), its tables and indexes (sqlite_master) and their row counts.
struct StoreContents {
    struct Entity {
        var number: Int
        var name: String
        var superNumber: Int
        var maxKey: Int
        /// The table holding its rows, when found; nil otherwise.
        var table: String?
        /// Rows of this entity exactly (`Z_ENT` = number in a shared table).
        var rows: Int?
    }

    struct Object {
        var type: String
        var name: String
        var table: String
    }

    let connection: Connection
    private(set) var entities: [Entity] = []
    private(set) var objects: [Object] = []
    private(set) var tableRows: [String: Int] = [:]

    /// Opens `path` read-only; throws when it is missing, not SQLite, or not Core Data's.
    init(path: String) throws(InspectError) {
        (connection, objects) = try Self.schema(ofStoreAt: path)
        do {
            try count()
            try readEntities()
        } catch {
            throw InspectError("cannot read '\(path)': \(error)")
        }
    }

    /// The read-only connection to `path` and its tables and indexes, after
    /// the checks every store command makes first: the file is there, is
    /// SQLite, and has Core Data's bookkeeping tables. Reads no row.
    static func schema(ofStoreAt path: String) throws(InspectError) -> (Connection, [Object]) {
        guard FileManager.default.fileExists(atPath: path) else { throw InspectError("no store at '\(path)'") }
        let connection: Connection
        let objects: [Object]
        do {
            connection = try Connection(.file(path), configuration: .inspecting(path))
            objects = try connection.rows(
                "SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY type DESC, name"
            ).compactMap { row in
                guard row.count == 3, case .text(let type) = row[0], case .text(let name) = row[1],
                      case .text(let table) = row[2] else { return nil }
                return Object(type: type, name: name, table: table)
            }
        } catch {
            throw InspectError("'\(path)' is not a readable SQLite database: \(error)")
        }
        let tables = Set(objects.filter { $0.type == "table" }.map { $0.name.uppercased() })
        for required in ["Z_PRIMARYKEY", "Z_METADATA"] where !tables.contains(required) {
            throw InspectError("'\(path)' is not a Core Data store: it has no \(required) table")
        }
        return (connection, objects)
    }

    var hasModelCache: Bool { objects.contains { $0.type == "table" && $0.name.uppercased() == "Z_MODELCACHE" } }

    private mutating func count() throws {
        for table in objects where table.type == "table" {
            if case .integer(let rows)? = try connection.scalar("SELECT count(*) FROM \(Self.quoted(table.name))") {
                tableRows[table.name] = Int(rows)
            }
        }
    }

    /// Entities by number; each one's table is `Z` + its root entity's name
    /// upper-cased (Core Data's naming), or `tables[name]` when given (from a model).
    private mutating func readEntities() throws {
        for row in try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
            guard row.count == 4, case .integer(let number) = row[0], case .text(let name) = row[1] else { continue }
            let superNumber = if case .integer(let value) = row[2] { Int(value) } else { 0 }
            let maxKey = if case .integer(let value) = row[3] { Int(value) } else { 0 }
            entities.append(Entity(number: Int(number), name: name, superNumber: superNumber, maxKey: maxKey))
        }
        let byNumber = Dictionary(entities.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        for index in entities.indices {
            var root = entities[index]
            var steps = 0
            while root.superNumber != 0, let parent = byNumber[root.superNumber], steps < entities.count {
                root = parent
                steps += 1
            }
            let candidate = "Z" + root.name.uppercased()
            guard let table = objects.first(where: { $0.type == "table" && $0.name.uppercased() == candidate })?.name else { continue }
            entities[index].table = table
            entities[index].rows = try rows(of: entities[index].number, in: table)
        }
    }

    /// Rows with `Z_ENT` = `number` in `table`; all rows when it has no Z_ENT column.
    func rows(of number: Int, in table: String) throws -> Int? {
        let columns = try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(table)])
        let hasEntityColumn = columns.contains { $0.first == .text("Z_ENT") }
        let sql = "SELECT count(*) FROM \(Self.quoted(table))" + (hasEntityColumn ? " WHERE Z_ENT = ?" : "")
        guard case .integer(let rows)? = try connection.scalar(sql, hasEntityColumn ? [.integer(Int64(number))] : [])
        else { return nil }
        return Int(rows)
    }

    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
