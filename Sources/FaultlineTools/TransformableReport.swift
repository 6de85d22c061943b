import Faultline
import FaultlineSQLite
import Foundation

/// What a matched store's transformable values decode to, for the attributes
/// that store Core Data's keyed archives (no transformer of the app's own):
/// how many decode to Foundation values, and a warning for each class that
/// does not (an app's own, CloudKit's), whose values read as their bytes.
enum TransformableReport {
    static func lines(store connection: Connection, model: CheckedModel) -> [String] {
        guard let schema = try? StoreSchema(compiling: model) else { return [] }
        var lines: [String] = []
        for entity in model.entities {
            for attribute in entity.attributes where attribute.attributeType == .transformableAttributeType
                && attribute.declaringEntityIndex == entity.index
                && ValueTransformerRegistry.storesCoreDataArchive(transformerName: attribute.valueTransformerName) {
                guard let column = schema.entities[entity.index].column(forAttributeAt: attribute.index) else { continue }
                let table = schema.entities[entity.index].table
                let hierarchy = entity.hierarchyIndexes.map { SQLValue.integer(Int64(model.entities[$0].number)) }
                let marks = Array(repeating: "?", count: hierarchy.count).joined(separator: ", ")
                guard let rows = try? connection.rows(
                    "SELECT \(column) FROM \(table) WHERE \(column) IS NOT NULL AND Z_ENT IN (\(marks))", hierarchy) else { continue }
                var decoded = 0
                var foreign: [String: Int] = [:]
                var other = 0
                for row in rows {
                    guard case .blob(let bytes)? = row.first else { other += 1; continue }
                    switch FoundationArchive.decode(bytes) {
                    case .value: decoded += 1
                    case .unsupportedClass(let name): foreign[name, default: 0] += 1
                    case .malformed: other += 1
                    }
                }
                guard !rows.isEmpty else { continue }
                lines.append("    \(entity.name).\(attribute.name) (\(table).\(column)): \(decoded) of \(rows.count) values decode")
                for (name, count) in foreign.sorted(by: { $0.key < $1.key }) {
                    lines.append("    warning: \(count) value\(count == 1 ? " is" : "s are") archived \(name) objects, "
                        + "read as their bytes (only Foundation's value classes decode)")
                }
                if other > 0 {
                    lines.append("    warning: \(other) value\(other == 1 ? " is" : "s are") not a keyed archive, read as stored")
                }
            }
        }
        return lines.isEmpty ? [] : ["    transformable values (Core Data's keyed archives):"] + lines.map { "  " + $0 }
    }
}
