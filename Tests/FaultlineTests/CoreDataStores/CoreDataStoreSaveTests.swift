// A save through Faultline into a copy of each matching store keeps it valid
// for Core Data: one insert per root entity, one update, one delete where
// safe; then `PRAGMA integrity_check` is ok, Z_MAX covers every Z_PK of its
// hierarchy, the updated row's Z_OPT went up by one, inserted rows carry
// Z_OPT 1, join rows are written, and a fresh open reads the new objects.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("CoreDataStore: saves into a copy keep the store valid for Core Data")
struct CoreDataStoreSaveTests {
    struct Inserted {
        let entity: CheckedEntity
        let primaryKey: Int64
        let values: [Int: AttributeValue]
        let manyToManyCounts: [String: Int]
    }

    @Test("Insert, update and delete leave integrity, Z_MAX and Z_OPT consistent", arguments: CoreDataStoreFixture.all)
    func saveStaysValid(_ fixture: CoreDataStoreFixture) throws {
        let copy = try StoreCopy(fixture.storePath)
        defer { copy.remove() }
        let container = try PersistentContainer(coreDataStoreAt: copy.url, model: fixture.model(), options: fixture.options)
        let model = container.model
        let schema = container.coordinator.schema
        let context = container.newBackgroundContext()

        let (inserted, updated, deleted) = try context.performAndWait {
            () throws -> ([Inserted], (CheckedEntity, Int64, Int64)?, (CheckedEntity, Int64)?) in
            // Update: the first object with a stored string attribute.
            var updated: (CheckedEntity, Int64, Int64)?
            var updatedObject: ManagedObject?
            for entity in model.entities where !entity.isAbstract && updated == nil {
                guard let attribute = entity.attributes.first(where: {
                    $0.attributeType == .stringAttributeType && !$0.isDerived && !$0.isTransient }) else { continue }
                var request = FetchRequest(entityName: entity.name)
                request.includesSubentities = false
                guard let object = try context.fetch(request).first else { continue }
                let version = try #require(try RawStore.integer(
                    copy.connection(), "SELECT Z_OPT FROM \(schema.entities[entity.index].table) WHERE Z_PK = ?",
                    [.integer(object.objectID.primaryKey)]))
                try object.setValue("Updated by Faultline", forKey: attribute.name)
                updated = (entity, object.objectID.primaryKey, version)
                updatedObject = object
            }
            // Delete: the last object of the fixture's deletable entity.
            var deleted: (CheckedEntity, Int64)?
            if let name = fixture.deletable, let entity = model.entity(named: name) {
                var request = FetchRequest(entityName: name)
                request.includesSubentities = false
                if let object = try context.fetch(request).last, object !== updatedObject {
                    deleted = (entity, object.objectID.primaryKey)
                    context.delete(object)
                }
            }
            // Insert: one object per root (its first concrete entity when abstract).
            var objects: [(CheckedEntity, ManagedObject)] = []
            for root in model.entities where root.isRoot {
                let entity = try #require(SaveFiller.concrete(root.index, in: model))
                let object = try context.insertNewObject(forEntityName: entity.name)
                try SaveFiller.fill(object, in: context, model: model, depth: 0)
                // Many-to-many: join one existing member on every side, so join rows
                // are written (for a reflexive pair, both orientations).
                for relationship in entity.relationships where relationship.isToMany && relationship.inverseIsToMany == true {
                    let destination = model.entities[relationship.destinationEntityIndex]
                    let existing = try context.fetch(FetchRequest(entityName: destination.name))
                        .first { !$0.objectID.isTemporaryID && $0.objectID.primaryKey != deleted?.1 }
                    if let existing { try object.setValue([existing], forKey: relationship.name) }
                }
                objects.append((entity, object))
            }
            try context.save()
            let inserted = objects.map { entity, object in
                var values: [Int: AttributeValue] = [:]
                for attribute in entity.attributes where !attribute.isTransient && !attribute.isDerived {
                    values[attribute.index] = object.attributeValue(at: attribute.index)
                }
                var counts: [String: Int] = [:]
                for relationship in entity.relationships where relationship.isToMany && relationship.inverseIsToMany == true {
                    counts[relationship.name] = (object.value(forKey: relationship.name) as? [ManagedObject])?.count ?? 0
                }
                return Inserted(entity: entity, primaryKey: object.objectID.primaryKey, values: values, manyToManyCounts: counts)
            }
            return (inserted, updated, deleted)
        }

        let raw = try copy.connection()
        #expect(try raw.scalar("PRAGMA integrity_check") == .text("ok"), "\(fixture.name): integrity_check")
        #expect(try raw.rows("PRAGMA foreign_key_check").isEmpty)
        for root in model.entities where root.isRoot {
            let table = schema.entities[root.index].table
            let maxKey = try RawStore.integer(raw, "SELECT max(Z_PK) FROM \(table)") ?? 0
            let reserved = try #require(try RawStore.integer(
                raw, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(Int64(root.number))]))
            #expect(reserved >= maxKey, "\(fixture.name) \(root.name): Z_MAX \(reserved) < max(Z_PK) \(maxKey)")
        }
        let updatedEntity = try #require(updated, "\(fixture.name): nothing to update")
        let newVersion = try RawStore.integer(
            raw, "SELECT Z_OPT FROM \(schema.entities[updatedEntity.0.index].table) WHERE Z_PK = ?",
            [.integer(updatedEntity.1)])
        #expect(newVersion == updatedEntity.2 + 1, "\(fixture.name) \(updatedEntity.0.name): Z_OPT \(String(describing: newVersion))")
        if let (entity, key) = deleted {
            #expect(try RawStore.integer(raw, "SELECT count(*) FROM \(schema.entities[entity.index].table) WHERE Z_PK = ?",
                                         [.integer(key)]) == 0)
        }
        for object in inserted {
            #expect(try RawStore.integer(
                raw, "SELECT Z_OPT FROM \(schema.entities[object.entity.index].table) WHERE Z_PK = ? AND Z_ENT = ?",
                [.integer(object.primaryKey), .integer(Int64(object.entity.number))]) == 1)
        }

        let joinRows = try RawStore.joinRows(raw)
        for object in inserted where object.manyToManyCounts.values.contains(where: { $0 > 0 }) {
            #expect(joinRows.values.joined().contains { $0.contains(.integer(object.primaryKey)) },
                    "\(fixture.name): no join row for the new \(object.entity.name) \(object.primaryKey): \(joinRows)")
        }
        // A fresh open (matched again, so still the model's store) reads the new objects.
        let reopened = try PersistentContainer(coreDataStoreAt: copy.url, model: fixture.model(), options: fixture.options)
        let check = reopened.newBackgroundContext()
        try check.performAndWait {
            for object in inserted {
                var request = FetchRequest(entityName: object.entity.name)
                request.includesSubentities = false
                let found = try #require(try check.fetch(request).first { $0.objectID.primaryKey == object.primaryKey },
                                         "\(fixture.name): new \(object.entity.name) \(object.primaryKey) not readable")
                for (index, value) in object.values {
                    #expect(found.attributeValue(at: index) == value,
                            "\(fixture.name) \(object.entity.name).\(object.entity.attributes[index].name)")
                }
                for (name, count) in object.manyToManyCounts {
                    #expect((found.value(forKey: name) as? [ManagedObject])?.count == count,
                            "\(fixture.name) \(object.entity.name) \(object.primaryKey) \(name); join rows: \(joinRows)")
                }
            }
        }
    }
}
