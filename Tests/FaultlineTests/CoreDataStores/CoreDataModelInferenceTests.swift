// A store that carries no model is read with the model its schema implies:
// entities and inheritance from Z_PRIMARYKEY, to-ones into hierarchies from
// their Z<n>_ columns, many-to-manys from join tables (reflexive ones named as
// the store names them), attributes typed by declared type; the store opens
// read-only and every write is refused. A NULL metadata plist reads as none.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("CoreDataStore: the model a store's schema implies")
struct CoreDataModelInferenceTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Shape", abstract: true) {
                Attribute("label", .string).indexed()
                Attribute("area", .double)
                Attribute("created", .date)
                Attribute("price", .decimal)
                Attribute("sides", .integer16)
                Attribute("blob", .binaryData)
                Relationship("canvases", to: "Canvas", inverse: "shapes", toMany: true)
            }
            Entity("Circle", parent: "Shape") { Attribute("radius", .double) }
            Entity("Square", parent: "Shape") { Attribute("edge", .double) }
            Entity("Canvas") {
                Attribute("title", .string)
                Relationship("focus", to: "Shape")
                Relationship("shapes", to: "Shape", inverse: "canvases", toMany: true)
                Relationship("members", to: "Canvas", inverse: "membersInverse", toMany: true)
                Relationship("membersInverse", to: "Canvas", inverse: "members", toMany: true)
            }
            Entity("Layer") { Attribute("depth", .integer32) }
        }
    }

    @Test("The implied model matches the store; every row reads; a save is refused and nothing is written")
    func inferredModelReadsOnly() throws {
        let directory = try FixtureLocator.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Shapes.sqlite")
        let writer = try PersistentContainer(model: Self.model(), location: .file(url)).newBackgroundContext()
        try writer.performAndWait {
            let circle = try writer.insertNewObject(forEntityName: "Circle")
            try circle.setValue("disc", forKey: "label")
            try circle.setValue(2.0, forKey: "radius")
            try circle.setValue(Date(timeIntervalSinceReferenceDate: 5), forKey: "created")
            let canvas = try writer.insertNewObject(forEntityName: "Canvas")
            try canvas.setValue("one", forKey: "title")
            try canvas.setValue(circle, forKey: "focus")
            let other = try writer.insertNewObject(forEntityName: "Canvas")
            try canvas.setValue([other], forKey: "members")
            try writer.save()
        }
        let inferred = try CoreDataModelInference.model(ofStoreAt: url).checked()
        #expect(inferred.entities.map(\.name) == ["Canvas", "Layer", "Shape", "Circle", "Square"])
        let shape = try #require(inferred.entity(named: "Shape"))
        #expect(shape.attributes.first { $0.name == "label" }?.isIndexed == true)
        #expect(shape.attributes.first { $0.name == "created" }?.attributeType == .dateAttributeType)
        #expect(shape.attributes.first { $0.name == "price" }?.attributeType == .decimalAttributeType)
        let canvas = try #require(inferred.entity(named: "Canvas"))
        #expect(canvas.relationships.first { $0.name == "focus" }.map { inferred.entities[$0.destinationEntityIndex].name } == "Shape")
        #expect(Set(canvas.relationships.filter(\.isManyToMany).map { $0.name.lowercased() }) == ["members", "membersinverse", "shapes"])

        let container = try PersistentContainer(coreDataStoreInferringModelAt: url)
        let counts = try RowReadback.compareEveryRow(container, raw: Connection(.file(url.path)), label: "Shapes")
        #expect(counts.rows == 3)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let canvases = try context.fetch(FetchRequest(entityName: "Canvas"))
            let first = try #require(canvases.first { $0.value(forKey: "title") as? String == "one" })
            #expect((first.value(forKey: "focus") as? ManagedObject)?.value(forKey: "label") as? String == "disc")
            #expect((first.value(forKey: "members") as? [ManagedObject])?.count == 1)
            try first.setValue("changed", forKey: "title")
            #expect(throws: CoreDataStoreError.inferredModelIsReadOnly(path: url.path)) { try context.save() }
        }
        #expect(try Connection(.file(url.path)).scalar("SELECT count(*) FROM ZCANVAS WHERE ZTITLE = 'changed'") == .integer(0))
    }

    @Test("Reading through an inferred model leaves the files as they were: a rollback-journal store is not switched to WAL")
    func inferredOpenWritesNothing() throws {
        let directory = try FixtureLocator.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Shapes.sqlite")
        do {
            let writer = try PersistentContainer(model: Self.model(), location: .file(url)).newBackgroundContext()
            try writer.performAndWait {
                try writer.insertNewObject(forEntityName: "Canvas").setValue("one", forKey: "title")
                try writer.save()
            }
        }
        try Connection(.file(url.path)).execute("PRAGMA journal_mode = DELETE")
        let before = try Data(contentsOf: url)
        do {
            let container = try PersistentContainer(coreDataStoreInferringModelAt: url)
            let context = container.newBackgroundContext()
            #expect(try context.performAndWait { try context.count(for: FetchRequest(entityName: "Canvas")) } == 1)
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test("A Z_METADATA row whose Z_PLIST is NULL reads as metadata without keys; the store still matches and opens")
    func nullMetadataPlist() throws {
        let directory = try FixtureLocator.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Shapes.sqlite")
        _ = try PersistentContainer(model: Self.model(), location: .file(url))
        try Connection(.file(url.path)).execute("UPDATE Z_METADATA SET Z_PLIST = NULL")
        let metadata = try StoreBootstrap.metadata(on: Connection(.file(url.path)))
        #expect(metadata.entityVersionHashes.isEmpty && metadata.checksum == nil && !metadata.uuid.isEmpty)
        let container = try PersistentContainer(coreDataStoreAt: url, model: Self.model())
        #expect(container.coordinator.storeUUID == metadata.uuid)
    }
}
