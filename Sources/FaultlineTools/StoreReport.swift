import Faultline
import FaultlineSQLite
import Foundation

/// The sections of `store inspect` output.
enum StoreReport {
    static func entities(_ contents: StoreContents) -> [String] {
        var lines = ["entities (Z_PRIMARYKEY): \(contents.entities.count)"]
        let names = Dictionary(contents.entities.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
        let width = contents.entities.map(\.name.count).max() ?? 0
        for entity in contents.entities {
            var line = "  \(entity.number) \(InspectFormat.pad(entity.name, width))"
            if let table = entity.table {
                line += "  \(entity.rows.map(String.init) ?? "?") rows in \(table)"
            } else {
                line += "  no table found"
            }
            if entity.superNumber != 0 { line += ", parent \(names[entity.superNumber] ?? "#\(entity.superNumber)")" }
            line += ", Z_MAX \(entity.maxKey)"
            lines.append(line)
        }
        return lines
    }

    static func tables(_ contents: StoreContents) -> [String] {
        let tables = contents.objects.filter { $0.type == "table" }
        let indexes = contents.objects.filter { $0.type == "index" }
        let width = tables.map(\.name.count).max() ?? 0
        var lines = ["tables (sqlite_master): \(tables.count)"]
        for table in tables {
            lines.append("  \(InspectFormat.pad(table.name, width))  \(contents.tableRows[table.name].map(String.init) ?? "?") rows")
        }
        lines.append("indexes: \(indexes.count)")
        for index in indexes { lines.append("  \(index.name) on \(index.table)") }
        return lines
    }

    static func metadata(_ connection: Connection) -> [String] {
        let metadata: StoreMetadata
        do { metadata = try StoreBootstrap.metadata(on: connection) } catch {
            return ["metadata: unreadable: \(error)"]
        }
        var lines = ["metadata (Z_METADATA):"]
        lines.append("  Z_UUID \(metadata.uuid)")
        if (try? connection.scalar("SELECT Z_PLIST IS NULL FROM Z_METADATA WHERE Z_VERSION = 1")) == .integer(1) {
            return lines + ["  Z_PLIST is NULL: the store records no metadata keys and no entity hashes"]
        }
        lines.append("  NSStoreType \(metadata.storeType)")
        lines.append("  NSPersistenceFrameworkVersion \(metadata.frameworkVersion)")
        if let maximum = metadata.maximumFrameworkVersion { lines.append("  NSPersistenceMaximumFrameworkVersion \(maximum)") }
        lines.append("  NSStoreModelVersionIdentifiers \(metadata.versionIdentifiers)")
        lines.append("  NSStoreModelVersionHashesVersion \(metadata.hashesVersion)")
        lines.append("  _NSAutoVacuumLevel \(metadata.autoVacuumLevel)")
        if let checksum = metadata.checksum { lines.append("  NSStoreModelVersionChecksumKey \(checksum)") }
        lines.append("  NSStoreModelVersionHashes:")
        for name in metadata.entityVersionHashes.keys.sorted() {
            lines.append("    \(name) \(InspectFormat.hex(metadata.entityVersionHashes[name] ?? Data()))")
        }
        for key in metadata.additional.keys.sorted() {
            lines.append("  \(key) \(metadata.additional[key].map(brief) ?? "")")
        }
        return lines
    }

    static func brief(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let text): text.count > 60 ? "\"\(text.prefix(60))…\" (\(text.count) characters)" : "\"\(text)\""
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)"
        case .boolean(let flag): "\(flag)"
        case .date(let date): "\(date)"
        case .data(let data): "<\(data.count) bytes>"
        case .array(let items): "[\(items.count) items]"
        case .dictionary(let entries): "{\(entries.count) keys}"
        }
    }

    static func sizes(_ result: StoreSizes.Result, contents: StoreContents) -> [String] {
        switch result {
        case .perObject(let sizes, let pageSize, let totalPages):
            var lines = ["sizes (dbstat, page size \(pageSize), \(totalPages) pages = \(InspectFormat.bytes(pageSize * totalPages))):"]
            let kinds = Dictionary(contents.objects.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
            let width = sizes.map(\.name.count).max() ?? 0
            for size in sizes {
                let kind = kinds[size.name] ?? (size.name.hasPrefix("sqlite_autoindex") ? "index" : "table")
                lines.append("  \(InspectFormat.pad(kind, 5)) \(InspectFormat.pad(size.name, width))  "
                    + "\(size.pages) page\(size.pages == 1 ? "" : "s"), \(InspectFormat.bytes(size.bytes))")
            }
            return lines
        case .totalOnly(let pageSize, let totalPages, let reason):
            return ["sizes: database \(totalPages) pages × \(pageSize) = \(InspectFormat.bytes(pageSize * totalPages)); \(reason)"]
        case .unavailable(let reason):
            return ["sizes: unavailable: \(reason)"]
        }
    }
}
