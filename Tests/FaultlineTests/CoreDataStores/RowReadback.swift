// Reads every row of every entity of an open Core Data store through the
// object graph and compares each column with what a plain SQLite read of the
// same file shows: attributes decoded by hand from Core Data's encodings,
// transformables decoded, to-one keys as the destination's Z_PK. Shared by the suite over the stores
// with code models and the walk over every fixture store.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

enum RowReadback {
    struct Counts {
        var rows = 0
        var values = 0
        /// Rows in the entity tables, whichever entity they belong to.
        var tableRows = 0
    }

    /// Compares every row; records an issue labelled `label` for each difference.
    static func compareEveryRow(_ container: PersistentContainer, raw: Connection, label: String) throws -> Counts {
        let model = container.model
        let schema = container.coordinator.schema
        let context = container.newBackgroundContext()
        var counts = Counts()

        for entity in model.entities where !entity.isAbstract {
            let mapping = schema.entities[entity.index]
            var columns: [String] = []
            var attributes: [CheckedAttribute] = []
            for attribute in entity.attributes {
                guard let column = mapping.column(forAttributeAt: attribute.index) else { continue }
                columns.append(column)
                attributes.append(attribute)
            }
            var toOnes: [(CheckedRelationship, String)] = []
            for relationship in entity.relationships {
                if case .foreignKey(let column, _) = mapping.relationships[relationship.index] {
                    toOnes.append((relationship, column))
                    columns.append(column)
                }
            }
            let expected = try RawStore.rows(raw, table: mapping.table, entityNumber: entity.number, columns: columns)

            // Transformables as the app sees them, written down comparably.
            let transformables = attributes.filter { $0.attributeType == .transformableAttributeType }
            let objects = try context.performAndWait { () throws -> [(Int64, Int, [AttributeValue], [Int64?], [String: Data])] in
                var request = FetchRequest(entityName: entity.name)
                request.includesSubentities = false
                return try context.fetch(request).map { object in
                    let values = attributes.map { object.attributeValue(at: $0.index) }
                    let keys = toOnes.map { (object.value(forKey: $0.0.name) as? ManagedObject)?.objectID.primaryKey }
                    var decoded: [String: Data] = [:]
                    for attribute in transformables { decoded[attribute.name] = comparable(object.value(forKey: attribute.name)) }
                    return (object.objectID.primaryKey, object.objectID.entityNumber, values, keys, decoded)
                }
            }
            #expect(objects.count == expected.count, "\(label) \(entity.name): \(objects.count) objects, \(expected.count) rows")
            for (pk, entityNumber, values, keys, decoded) in objects {
                #expect(entityNumber == entity.number)
                guard let row = expected[pk] else {
                    Issue.record("\(label) \(entity.name) Z_PK \(pk): read but not in the table")
                    continue
                }
                for (offset, attribute) in attributes.enumerated() {
                    let want = RawStore.expected(row.values[offset], for: attribute)
                    #expect(values[offset] == want,
                            "\(label) \(entity.name) Z_PK \(pk) \(columns[offset]): read \(values[offset]), sqlite3 shows \(want)")
                    counts.values += 1
                }
                // Transformables decoded: what a plain read of the bytes decodes to,
                // by the transformer the model names or Core Data's default archive.
                for attribute in transformables {
                    guard let offset = attributes.firstIndex(where: { $0.index == attribute.index }),
                          case .blob(let bytes) = row.values[offset] else { continue }
                    let want = comparable(TransformableCoding(attribute).decode(bytes))
                    #expect(decoded[attribute.name] == want, "\(label) \(entity.name) Z_PK \(pk) \(attribute.name): decoded value differs")
                    counts.values += 1
                }
                for (offset, (relationship, column)) in toOnes.enumerated() {
                    let stored = row.values[attributes.count + offset]
                    let want: Int64? = if case .integer(let key) = stored { key } else { nil }
                    #expect(keys[offset] == want,
                            "\(label) \(entity.name) Z_PK \(pk) \(relationship.name) (\(column)): \(String(describing: keys[offset])) vs \(String(describing: want))")
                    counts.values += 1
                }
                counts.rows += 1
            }
        }
        for table in Set(schema.entities.map(\.table)) {
            counts.tableRows += Int(try RawStore.integer(raw, "SELECT count(*) FROM \(table)") ?? -1)
        }
        #expect(counts.rows == counts.tableRows, "\(label): compared \(counts.rows) of \(counts.tableRows) rows")
        return counts
    }

    /// A value's keyed archive (deterministic), or its bytes, or its description.
    private static func comparable(_ value: Any?) -> Data {
        guard let value else { return Data() }
        if let bytes = value as? Data { return bytes }
        return (try? FoundationArchive.encode(value)) ?? Data("\(value)".utf8)
    }
}
