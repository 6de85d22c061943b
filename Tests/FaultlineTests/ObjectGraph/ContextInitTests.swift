import Foundation
import Testing
@testable import Faultline

/// `Book(context: context)`, as most Core Data code makes its objects.
@Suite("Objects made with init(context:)")
struct ContextInitTests {
    final class Shelf: ManagedObject {
        var awakenings = 0
        override func awakeFromInsert() {
            awakenings += 1
            try? setPrimitiveValue("awake", forKey: "label")
        }
    }
    final class Unregistered: ManagedObject {}
    final class Abstract: ManagedObject {}

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Shelf", className: "Shelf") {
                Attribute("label", .string)
                Attribute("capacity", .integer64).defaultValue(.integer(12))
            }
            Entity("Thing", abstract: true) {
                Attribute("name", .string)
            }
            Entity("Chair", parent: "Thing") {
                Attribute("legs", .integer64)
            }
        }
    }

    private func container() throws -> (PersistentContainer, URL) {
        let (container, url) = try LibraryModel.container(Self.model())
        try container.register(Shelf.self, forEntityName: "Shelf")
        try container.register(Abstract.self, forEntityName: "Thing")
        return (container, url)
    }

    @Test("The object is inserted, awake, with the model's defaults, and saved as insertObject's would be")
    func insertsAndSaves() throws {
        let (container, url) = try container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let id = try context.performAndWait { () throws -> ManagedObjectID in
            let shelf = try Shelf(context: context)
            #expect(shelf.awakenings == 1)
            #expect(shelf.isInserted && shelf.objectID.isTemporaryID)
            #expect(shelf.managedObjectContext === context)
            #expect(context.insertedObjects == [shelf])
            #expect(shelf.value(forKey: "label") as? String == "awake")
            #expect(shelf.value(forKey: "capacity") as? Int64 == 12)
            #expect(context.registeredObject(for: shelf.objectID) === shelf)
            #expect(context.counters.objectsMaterialized == 1)
            try context.save()
            #expect(!shelf.objectID.isTemporaryID)
            return shelf.objectID
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let shelf = try reader.existingObject(with: id)
            #expect(shelf is Shelf)
            #expect(shelf.value(forKey: "capacity") as? Int64 == 12)
        }
    }

    @Test("Undo takes the insert back, and redo brings the same object back")
    func undoable() throws {
        let (container, url) = try container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            context.undoManager = UndoManager()
            let shelf = try Shelf(context: context)
            context.processPendingChanges()
            context.undoManager?.undo()
            #expect(context.insertedObjects.isEmpty)
            context.undoManager?.redo()
            #expect(context.insertedObjects == [shelf])
        }
    }

    @Test("A class no entity is registered with, and an abstract entity's, are typed errors where Core Data raises")
    func refusals() throws {
        let (container, url) = try container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.performAndWait {
            #expect(throws: ObjectAccessError.self) { try Unregistered(context: context) }
            #expect(throws: ObjectAccessError.abstractEntity("Thing")) { try Abstract(context: context) }
            #expect(context.insertedObjects.isEmpty)
            #expect(context.registeredObjects.isEmpty)
        }
    }
}
