import FaultlineSQLite
import Foundation

/// The size of each table and index: from the `dbstat` virtual table when this
/// SQLite has it, else only the whole database's (`page_count` × `page_size`).
enum StoreSizes {
    struct Size {
        var name: String
        var pages: Int
        var bytes: Int
    }

    enum Result {
        case perObject([Size], pageSize: Int, totalPages: Int)
        case totalOnly(pageSize: Int, totalPages: Int, reason: String)
        case unavailable(String)
    }

    static func measure(_ connection: Connection) -> Result {
        let pageSize: Int
        let pageCount: Int
        do {
            guard case .integer(let size)? = try connection.scalar("PRAGMA page_size"),
                  case .integer(let count)? = try connection.scalar("PRAGMA page_count")
            else { return .unavailable("PRAGMA page_size/page_count returned nothing") }
            pageSize = Int(size)
            pageCount = Int(count)
        } catch {
            return .unavailable("\(error)")
        }
        do {
            _ = try connection.rows("SELECT * FROM dbstat LIMIT 1")
        } catch {
            return .totalOnly(pageSize: pageSize, totalPages: pageCount,
                              reason: "this SQLite has no dbstat virtual table, so per-table sizes are unavailable")
        }
        do {
            let rows = try connection.rows(
                "SELECT name, count(*), sum(pgsize) FROM dbstat GROUP BY name ORDER BY sum(pgsize) DESC, name")
            let sizes = rows.compactMap { row -> Size? in
                guard row.count == 3, case .text(let name) = row[0], case .integer(let pages) = row[1],
                      case .integer(let bytes) = row[2] else { return nil }
                return Size(name: name, pages: Int(pages), bytes: Int(bytes))
            }
            return .perObject(sizes, pageSize: pageSize, totalPages: pageCount)
        } catch {
            return .totalOnly(pageSize: pageSize, totalPages: pageCount, reason: "dbstat failed: \(error)")
        }
    }
}
