// A save through Faultline into a copy of a Core Data store that must keep it
// valid for Core Data: one insert per root entity, one update, one delete
// where safe; then `PRAGMA integrity_check` is ok, Z_MAX covers every Z_PK of
// its hierarchy, the updated row's Z_OPT went up by one, inserted rows carry
// Z_OPT 1, join rows are written, and a fresh open reads the new objects.
// Shared by the suite over the stores with code models and the walk over
// every fixture store.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

enum SaveRoundTrip {
    struct Inserted {
        let entity: CheckedEntity
        let primaryKey: Int64
        let values: [Int: AttributeValue]
        let manyToManyCounts: [String: Int]
    }

    /// What the save did.
    struct Summary {
        var inserted = 0
        /// The entity whose object was updated, if any had a stored string attribute.
        var updated: String?
        /// The entity whose object was deleted, if `deletable` named one with rows.
        var deleted: String?
        /// The container that saved: its row cache must now read as the file does.
        var container: PersistentContainer?
    }

    /// Opens the copy at `url` with `model`, saves, checks the file with a plain
    /// connection and reopens it; records an issue labelled `label` for each fault.
    static func run(url: URL, model makeModel: () throws -> ManagedObjectModel, options: CoreDataStoreOptions,
                    deletable: String?, label: String) throws -> Summary {
        let container = try PersistentContainer(coreDataStoreAt: url, model: makeModel(), options: options)
        let model = container.model
        let schema = container.coordinator.schema
        let context = container.newBackgroundContext()
        let raw = { try Connection(.file(url.path)) }

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
                    raw(), "SELECT Z_OPT FROM \(schema.entities[entity.index].table) WHERE Z_PK = ?",
                    [.integer(object.objectID.primaryKey)]))
                try object.setValue("Updated by Faultline", forKey: attribute.name)
                updated = (entity, object.objectID.primaryKey, version)
                updatedObject = object
            }
            // Delete: the last object of the deletable entity.
            var deleted: (CheckedEntity, Int64)?
            if let name = deletable, let entity = model.entity(named: name) {
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
                guard let entity = SaveFiller.concrete(root.index, in: model) else { continue }
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

        let connection = try raw()
        #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"), "\(label): integrity_check")
        #expect(try connection.rows("PRAGMA foreign_key_check").isEmpty, "\(label): foreign_key_check")
        for root in model.entities where root.isRoot {
            let table = schema.entities[root.index].table
            let maxKey = try RawStore.integer(connection, "SELECT max(Z_PK) FROM \(table)") ?? 0
            let reserved = try #require(try RawStore.integer(
                connection, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(Int64(root.number))]),
                "\(label) \(root.name): no Z_PRIMARYKEY row")
            #expect(reserved >= maxKey, "\(label) \(root.name): Z_MAX \(reserved) < max(Z_PK) \(maxKey)")
        }
        if let (entity, key, version) = updated {
            let newVersion = try RawStore.integer(
                connection, "SELECT Z_OPT FROM \(schema.entities[entity.index].table) WHERE Z_PK = ?", [.integer(key)])
            #expect(newVersion == version + 1, "\(label) \(entity.name): Z_OPT \(String(describing: newVersion))")
        }
        if let (entity, key) = deleted {
            #expect(try RawStore.integer(connection, "SELECT count(*) FROM \(schema.entities[entity.index].table) WHERE Z_PK = ?",
                                         [.integer(key)]) == 0, "\(label) \(entity.name) \(key): not deleted")
        }
        for object in inserted {
            #expect(try RawStore.integer(
                connection, "SELECT Z_OPT FROM \(schema.entities[object.entity.index].table) WHERE Z_PK = ? AND Z_ENT = ?",
                [.integer(object.primaryKey), .integer(Int64(object.entity.number))]) == 1,
                "\(label) \(object.entity.name) \(object.primaryKey): Z_OPT of the insert")
        }

        let joinRows = try RawStore.joinRows(connection)
        for object in inserted where object.manyToManyCounts.values.contains(where: { $0 > 0 }) {
            #expect(joinRows.values.joined().contains { $0.contains(.integer(object.primaryKey)) },
                    "\(label): no join row for the new \(object.entity.name) \(object.primaryKey): \(joinRows)")
        }
        // A fresh open (matched again, so still the model's store) reads the new objects.
        let reopened = try PersistentContainer(coreDataStoreAt: url, model: makeModel(), options: options)
        let check = reopened.newBackgroundContext()
        try check.performAndWait {
            for object in inserted {
                var request = FetchRequest(entityName: object.entity.name)
                request.includesSubentities = false
                let found = try #require(try check.fetch(request).first { $0.objectID.primaryKey == object.primaryKey },
                                         "\(label): new \(object.entity.name) \(object.primaryKey) not readable")
                for (index, value) in object.values {
                    #expect(found.attributeValue(at: index) == value,
                            "\(label) \(object.entity.name).\(object.entity.attributes[index].name)")
                }
                for (name, count) in object.manyToManyCounts {
                    #expect((found.value(forKey: name) as? [ManagedObject])?.count == count,
                            "\(label) \(object.entity.name) \(object.primaryKey) \(name); join rows: \(joinRows)")
                }
            }
        }
        return Summary(inserted: inserted.count, updated: updated?.0.name, deleted: deleted?.0.name, container: container)
    }
}
