// Every fixture store that has a matching model opens through
// `PersistentContainer(coreDataStoreAt:model:)`, and every row of every
// entity reads back through the object graph with the values a plain
// SQLite read of the same copy shows, column by column: attributes decoded
// by hand from Core Data's encodings, to-one keys as the destination's Z_PK.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("CoreDataStore: every row reads back as sqlite3 shows it")
struct CoreDataStoreRowTests {
    @Test("Opens and reads every row of every entity column by column", arguments: CoreDataStoreFixture.all)
    func everyRowMatches(_ fixture: CoreDataStoreFixture) throws {
        let copy = try StoreCopy(fixture.storePath)
        defer { copy.remove() }
        let container = try PersistentContainer(coreDataStoreAt: copy.url, model: fixture.model(), options: fixture.options)
        let model = container.model
        let schema = container.coordinator.schema
        let raw = try copy.connection()
        let context = container.newBackgroundContext()
        var rowsCompared = 0
        var valuesCompared = 0

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

            let objects = try context.performAndWait { () throws -> [(Int64, Int, [AttributeValue], [Int64?])] in
                var request = FetchRequest(entityName: entity.name)
                request.includesSubentities = false
                return try context.fetch(request).map { object in
                    let values = attributes.map { object.attributeValue(at: $0.index) }
                    let keys = toOnes.map { (object.value(forKey: $0.0.name) as? ManagedObject)?.objectID.primaryKey }
                    return (object.objectID.primaryKey, object.objectID.entityNumber, values, keys)
                }
            }
            #expect(objects.count == expected.count, "\(fixture.name) \(entity.name): \(objects.count) objects, \(expected.count) rows")
            for (pk, entityNumber, values, keys) in objects {
                #expect(entityNumber == entity.number)
                guard let row = expected[pk] else {
                    Issue.record("\(fixture.name) \(entity.name) Z_PK \(pk): read but not in the table")
                    continue
                }
                for (offset, attribute) in attributes.enumerated() {
                    let want = RawStore.expected(row.values[offset], for: attribute)
                    #expect(values[offset] == want,
                            "\(fixture.name) \(entity.name) Z_PK \(pk) \(columns[offset]): read \(values[offset]), sqlite3 shows \(want)")
                    valuesCompared += 1
                }
                for (offset, (relationship, column)) in toOnes.enumerated() {
                    let stored = row.values[attributes.count + offset]
                    let want: Int64? = if case .integer(let key) = stored { key } else { nil }
                    #expect(keys[offset] == want,
                            "\(fixture.name) \(entity.name) Z_PK \(pk) \(relationship.name) (\(column)): \(String(describing: keys[offset])) vs \(String(describing: want))")
                    valuesCompared += 1
                }
                rowsCompared += 1
            }
        }
        // Every row of every entity table was reached.
        var tableRows = 0
        for table in Set(schema.entities.map(\.table)) {
            tableRows += Int(try RawStore.integer(raw, "SELECT count(*) FROM \(table)") ?? -1)
        }
        #expect(rowsCompared == tableRows, "\(fixture.name): compared \(rowsCompared) of \(tableRows) rows")
        #expect(rowsCompared > 0 && valuesCompared > 0, "\(fixture.name): nothing compared")
    }

    /// Opening reads and writes nothing in Z_METADATA: Core Data still sees its own metadata.
    @Test("Opening and saving leave Z_METADATA byte for byte as Core Data wrote it", arguments: CoreDataStoreFixture.all)
    func metadataUntouched(_ fixture: CoreDataStoreFixture) throws {
        let copy = try StoreCopy(fixture.storePath)
        defer { copy.remove() }
        let before = try copy.connection().rows("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
        let container = try PersistentContainer(coreDataStoreAt: copy.url, model: fixture.model(), options: fixture.options)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let root = try #require(container.model.entities.first { !$0.isAbstract })
            let object = try context.insertNewObject(forEntityName: root.name)
            try SaveFiller.fill(object, in: context, model: container.model, depth: 0)
            try context.save()
        }
        let after = try copy.connection().rows("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
        #expect(before == after)
        let metadata = try StoreBootstrap.metadata(on: copy.connection())
        #expect(metadata.additional[StoreBootstrap.modelVersionHashKey] == nil)
    }
}
