import Foundation
import Testing
@testable import Faultline

/// An abstract entity has no instances of its own, as in Core Data: inserting
/// one, through a context or a batch insert, is a typed error that writes nothing.
@Suite("Abstract entities refuse inserts")
struct AbstractEntityTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Vehicle", abstract: true) { Attribute("name", .string) }
            Entity("Car", parent: "Vehicle") { Attribute("doors", .integer16) }
        }
    }

    @Test("insertNewObject of an abstract entity throws abstractEntity; its sub-entity inserts")
    func contextInsert() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            #expect(throws: ObjectAccessError.abstractEntity("Vehicle")) {
                try context.insertNewObject(forEntityName: "Vehicle")
            }
            #expect(!context.hasChanges)
            try context.insertNewObject(forEntityName: "Car").setValue("Mini", forKey: "name")
            try context.save()
            #expect(try context.count(for: FetchRequest(entityName: "Vehicle")) == 1)
        }
    }

    @Test("A batch insert into an abstract entity throws abstractEntity and writes nothing")
    func batchInsert() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let model = container.coordinator.model
        #expect(throws: BatchError.abstractEntity("Vehicle")) {
            try BatchInsertRequest(entityName: "Vehicle", in: model, objects: [["name": "Ghost"]])
        }
        try container.coordinator.execute(BatchInsertRequest(entityName: "Car", in: model, objects: [["name": "Mini"]]))
        let context = container.newBackgroundContext()
        #expect(try context.performAndWait { try context.count(for: FetchRequest(entityName: "Vehicle")) } == 1)
    }
}
