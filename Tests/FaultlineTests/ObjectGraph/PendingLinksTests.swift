import Foundation
import Testing
@testable import Faultline

/// The relationship changes a save writes outside the objects' rows — join
/// rows and hidden keys — are kept so that both sides of a pair agree, and
/// reach the store as rows named by relationship, never by table or column.
@Suite("Pending links: join rows and hidden keys both sides agree on")
struct PendingLinksTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Item") {
                Attribute("name", .string)
                Relationship("blocking", to: "Item", inverse: "blockedBy", toMany: true)
                Relationship("blockedBy", to: "Item", inverse: "blocking", toMany: true)
                Relationship("tags", to: "Tag", toMany: true)
            }
            Entity("Tag") {
                Attribute("label", .string)
            }
        }
    }

    private func withContext(_ body: (ManagedObjectContext, PersistentContainer) throws -> Void) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait { try body(context, container) }
    }

    @Test("Adding from one side and removing from the other agree on one pair: its last change, a removal, which a new pair never writes")
    func bothSidesAgree() throws {
        try withContext { context, _ in
            let a = try context.insertNewObject(forEntityName: "Item")
            let b = try context.insertNewObject(forEntityName: "Item")
            try a.addObject(b, toRelationship: "blocking")
            #expect(context.links.joinInserts.count == 1)
            try b.removeObject(a, fromRelationship: "blockedBy")
            #expect(context.links.joinInserts.isEmpty)
            #expect(context.links.joinDeletes.count == 1)
            let (request, _) = context.buildRequest()
            #expect(request.joinInserts.isEmpty && request.joinDeletes.isEmpty, "no row of an unsaved object is deleted")
        }
    }

    @Test("A reflexive pair in both directions is two rows, and both reach the store")
    func reflexivePairsStayTwo() throws {
        try withContext { context, container in
            let a = try context.insertNewObject(forEntityName: "Item")
            try a.setValue("a", forKey: "name")
            let b = try context.insertNewObject(forEntityName: "Item")
            try b.setValue("b", forKey: "name")
            try a.addObject(b, toRelationship: "blocking")
            try b.addObject(a, toRelationship: "blocking")
            #expect(context.links.joinInserts.count == 2)
            let (request, _) = context.buildRequest()
            #expect(request.joinInserts.count == 2)
            #expect(Set(request.joinInserts.map(\.relationship)).count == 1, "both recorded on the same side's relationship")
            try context.save()
            #expect(context.links.isEmpty)
            let rows = try container.coordinator.writer.withConnection { try $0.rows("SELECT * FROM Z_1BLOCKING") }
            #expect(rows.count == 2)
        }
    }

    @Test("Removing a saved pair, then adding it back, leaves the row: the removal gives way to an insert the store ignores")
    func removalThenAddKeepsRow() throws {
        try withContext { context, container in
            let a = try context.insertNewObject(forEntityName: "Item")
            let b = try context.insertNewObject(forEntityName: "Item")
            try a.addObject(b, toRelationship: "blocking")
            try context.save()
            try a.removeObject(b, fromRelationship: "blocking")
            #expect(context.links.joinDeletes.count == 1)
            try b.addObject(a, toRelationship: "blockedBy")
            #expect(context.links.joinDeletes.isEmpty)
            #expect(context.links.joinInserts.count == 1)
            try context.save()
            let rows = try container.coordinator.writer.withConnection { try $0.rows("SELECT * FROM Z_1BLOCKING") }
            #expect(rows.count == 1)
        }
    }

    @Test("A pair removed while neither side was loaded, then added, reaches the store (a cancelled add lost it)")
    func unloadedRemovalThenAdd() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            for name in ["a", "b"] { try writer.insertNewObject(forEntityName: "Item").setValue(name, forKey: "name") }
            try writer.save()
        }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            func item(_ name: String) throws -> ManagedObject {
                try #require(try context.fetch(FetchRequest(entityName: "Item", predicate: try FetchPredicate(format: "name == %@", name))).first)
            }
            let a = try item("a"), b = try item("b")
            try a.removeObject(b, fromRelationship: "blocking")
            try a.addObject(b, toRelationship: "blocking")
            try context.save()
        }
        let rows = try container.coordinator.writer.withConnection { try $0.rows("SELECT * FROM Z_1BLOCKING") }
        #expect(rows.count == 1)
    }

    @Test("A to-many without inverse keeps the member's last owner as its hidden key")
    func hiddenKeyLastAssignmentWins() throws {
        try withContext { context, _ in
            let first = try context.insertNewObject(forEntityName: "Item")
            let second = try context.insertNewObject(forEntityName: "Item")
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try first.addObject(tag, toRelationship: "tags")
            try first.removeObject(tag, fromRelationship: "tags")
            try second.addObject(tag, toRelationship: "tags")
            #expect(context.links.hiddenKeys.count == 1)
            #expect(context.links.hiddenKeys.values.first?.owner === second)
            let (request, _) = context.buildRequest()
            #expect(request.keyAssignments.count == 1)
            #expect(request.keyAssignments.first?.owner == second.objectID)
        }
    }

    @Test("An object inserted and deleted before saving takes its pending rows with it")
    func discardedObjectsLeaveNoRows() throws {
        try withContext { context, _ in
            let a = try context.insertNewObject(forEntityName: "Item")
            let b = try context.insertNewObject(forEntityName: "Item")
            try a.addObject(b, toRelationship: "blocking")
            context.delete(b)
            let (request, _) = context.buildRequest()
            #expect(request.joinInserts.isEmpty)
        }
    }
}
