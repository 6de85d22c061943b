import Foundation
import Testing
@testable import Faultline

/// A write to an object whose row another context deleted, or to one its
/// context let go of, is never dropped without a word: Core Data raises at the
/// access; here the throwing setters throw and a subscript's write fails the
/// next save, as a refused key does. Refusals belong to the changes they
/// spoilt: `rollback()` and `reset()` forget them with those changes.
@Suite("Writes to an object whose row is gone are refused, never dropped")
struct VanishedRowWriteTests {
    static var model: ManagedObjectModel {
        ManagedObjectModel {
            Entity("Item") {
                Attribute("n", .integer64)
                Attribute("text", .string)
            }
        }
    }
    static let n = AttributeKey<Int64?>("n")
    static let text = AttributeKey<String?>("text")

    /// A container with items 1 and 2, the context holding item 1 as an
    /// unfired fault, and item 1 deleted by another context since.
    private func vanishedFault() throws -> (PersistentContainer, ManagedObjectContext, ManagedObject) {
        let (container, _) = try LibraryModel.container(Self.model)
        let setUp = container.newBackgroundContext()
        let id = try setUp.performAndWait { () throws -> ManagedObjectID in
            let first = try setUp.insertNewObject(forEntityName: "Item")
            try first.setValue(1, forKey: "n")
            try setUp.insertNewObject(forEntityName: "Item").setValue(2, forKey: "n")
            try setUp.save()
            return first.objectID
        }
        let context = container.newBackgroundContext()
        let fault = try context.performAndWait { try context.object(with: id) }
        try setUp.performAndWait { () throws in
            setUp.delete(try setUp.existingObject(with: id))
            try setUp.save()
        }
        return (container, context, fault)
    }

    private func storedNumbers(_ container: PersistentContainer) throws -> [Int64] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            try reader.fetch(FetchRequest(entityName: "Item")).compactMap { $0[Self.n] }.sorted()
        }
    }

    @Test("A subscript write to a fault whose row is gone fails the next save with ObjectAccessError.deleted, and nothing is written")
    func subscriptWrite() throws {
        let (container, context, fault) = try vanishedFault()
        try context.performAndWait { () throws in
            fault[Self.text] = "lost?"
            fault[Self.n] = 100
            let error = try #require(throws: SaveError.self) { try context.save() }
            guard case .refusedAccess(let refusals) = error else { Issue.record("\(error)"); return }
            #expect(!refusals.isEmpty && refusals.allSatisfy { if case .deleted = $0 { true } else { false } })
            try context.save()
        }
        #expect(try storedNumbers(container) == [2])
    }

    @Test("setValue and the typed setter throw ObjectAccessError.deleted at the write")
    func throwingSetters() throws {
        let (_, context, fault) = try vanishedFault()
        try context.performAndWait { () throws in
            #expect(throws: ObjectAccessError.deleted(fault.description)) { try fault.setValue(100, forKey: "n") }
            #expect(throws: ObjectAccessError.deleted(fault.description)) { try fault.set("lost?", for: Self.text) }
            #expect(!context.hasChanges)
            try context.save()
        }
    }

    @Test("The typed setter refuses an object its context let go of (reset), as setValue does")
    func afterReset() throws {
        let (container, _) = try LibraryModel.container(Self.model)
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let item = try context.insertNewObject(forEntityName: "Item")
            try context.save()
            context.reset()
            #expect(throws: ObjectAccessError.otherContext(item.description)) { try item.set("lost?", for: Self.text) }
            #expect(throws: ObjectAccessError.otherContext(item.description)) { try item.setValue("lost?", forKey: "text") }
        }
    }

    @Test("rollback() and reset() forget refused writes with the changes they spoilt: the next save saves", arguments: [false, true])
    func refusalsForgotten(resetting: Bool) throws {
        let (container, context, fault) = try vanishedFault()
        try context.performAndWait { () throws in
            fault[Self.n] = 100
            let item = try context.insertNewObject(forEntityName: "Item")
            item[AttributeKey<String?>("misspelt")] = "x"
            if resetting { context.reset() } else { context.rollback() }
            try context.insertNewObject(forEntityName: "Item").setValue(3, forKey: "n")
            try context.save()
        }
        #expect(try storedNumbers(container) == [2, 3])
    }
}
