import Foundation
import Testing
@testable import Faultline

/// A context with an undo manager undoes and redoes each kind of change —
/// attributes, inserts, deletes with their cascades, relationships with their
/// inverses, ordered moves — back to the exact previous graph, compared
/// attribute by attribute and relationship by relationship.
@Suite("Undo and redo")
struct UndoTests {
    /// A context on a seeded store with an undo manager.
    static func editing() throws -> (PersistentContainer, ManagedObjectContext) {
        let container = try UndoModel.seeded()
        let context = container.newBackgroundContext()
        context.undoManager = UndoManager()
        return (container, context)
    }

    /// Runs `change` as one step; undoing restores the graph before it, redoing
    /// the graph after it, twice over.
    static func expectRoundTrip(
        _ context: ManagedObjectContext, sourceLocation: SourceLocation = #_sourceLocation,
        _ change: (ManagedObjectContext) throws -> Void
    ) throws {
        let before = try context.performAndWait { try UndoModel.dump(context) }
        let hadChanges = context.performAndWait { context.hasChanges }
        try context.performAndWait { try change(context) }
        let after = try context.performAndWait { try UndoModel.dump(context) }
        #expect(before != after, "the change changed something", sourceLocation: sourceLocation)
        for _ in 0..<2 {
            try context.performAndWait { () throws in
                context.undo()
                #expect(try UndoModel.dump(context) == before, sourceLocation: sourceLocation)
                #expect(context.hasChanges == hadChanges, sourceLocation: sourceLocation)
                context.redo()
                #expect(try UndoModel.dump(context) == after, sourceLocation: sourceLocation)
            }
        }
    }

    static func object(_ label: String, _ context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try UndoModel.object(label, in: context))
    }

    @Test("Attribute changes: undo restores the values and leaves the object unchanged again; redo reapplies them")
    func attributes() throws {
        let (container, context) = try Self.editing()
        try Self.expectRoundTrip(context) { context in
            let item = try Self.object("I1", context)
            try item.setValue("changed", forKey: "text")
            try item.setValue(Int64(99), forKey: "rank")
            try item.setValue("again", forKey: "text")
        }
        try context.performAndWait { () throws in
            context.undo()
            let item = try Self.object("I1", context)
            #expect(!item.hasChanges)
            #expect(item.changedValues().isEmpty)
        }
        _ = container
    }

    @Test("Insert: undo takes the new object out with its links to saved ones; redo brings the same object back, linked")
    func insert() throws {
        let (container, context) = try Self.editing()
        var inserted: ManagedObject?
        try Self.expectRoundTrip(context) { context in
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValue("I9", forKey: "label")
            try item.setValue(try Self.object("L2", context), forKey: "list")
            try item.addObject(try Self.object("T1", context), toRelationship: "tags")
            inserted = item
        }
        try context.performAndWait { () throws in
            context.undo()
            let item = try #require(inserted)
            #expect(item.managedObjectContext == nil)
            #expect(context.insertedObjects.isEmpty)
            #expect(!context.hasChanges)
            context.redo()
            #expect(item.managedObjectContext === context)
            #expect(context.insertedObjects == [item])
            try context.save()
        }
        let fresh = container.newBackgroundContext()
        try fresh.performAndWait { () throws in
            #expect(try UndoModel.dump(fresh).contains("Item I9 text=nil rank=0 list=L2 note=nil tags=[T1]"))
        }
    }

    @Test("Cascade delete: undo brings back the list, its cascaded items, their note and every relationship; redo deletes them again")
    func cascadeDelete() throws {
        let (container, context) = try Self.editing()
        try Self.expectRoundTrip(context) { context in
            context.delete(try Self.object("L1", context))
        }
        try context.performAndWait { () throws in
            #expect(context.deletedObjects.count == 5, "L1, I1–I3 and N1")
            context.undo()
            #expect(context.deletedObjects.isEmpty)
            #expect(!context.hasChanges)
        }
        _ = container
    }

    @Test("Relationship changes keep their inverses: an item moved between lists, tags swapped, a note handed on")
    func relationships() throws {
        let (container, context) = try Self.editing()
        try Self.expectRoundTrip(context) { context in
            try Self.object("I2", context).setValue(try Self.object("L2", context), forKey: "list")
        }
        try Self.expectRoundTrip(context) { context in
            let item = try Self.object("I1", context)
            try item.removeObject(try Self.object("T1", context), fromRelationship: "tags")
            try item.addObject(try Self.object("T2", context), toRelationship: "tags")
            try Self.object("T1", context).setValue([try Self.object("I4", context)], forKey: "items")
        }
        try Self.expectRoundTrip(context) { context in
            try Self.object("N1", context).setValue(try Self.object("I3", context), forKey: "item")
        }
        _ = container
    }

    @Test("Ordered moves: undo puts the members back in their previous order")
    func orderedMoves() throws {
        let (container, context) = try Self.editing()
        try Self.expectRoundTrip(context) { context in
            try Self.object("L1", context).moveObjects(at: [0], to: 2, inOrderedRelationship: "items")
        }
        try Self.expectRoundTrip(context) { context in
            let list = try Self.object("L1", context)
            try list.insertObject(try Self.object("I4", context), at: 1, inOrderedRelationship: "items")
            try list.removeObject(at: 0, fromOrderedRelationship: "items")
        }
        _ = container
    }

    @Test("Across a save: undo makes the saved values changes again and saving writes them; an undone insert is deleted, an undone delete inserted again")
    func acrossSave() throws {
        let (container, context) = try Self.editing()
        let seeded = try context.performAndWait { try UndoModel.dump(context) }
        try context.performAndWait { () throws in
            try Self.object("I1", context).setValue("saved text", forKey: "text")
        }
        try context.performAndWait { () throws in
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValue("I9", forKey: "label")
            try item.setValue(try Self.object("L2", context), forKey: "list")
        }
        try context.performAndWait { context.delete(try Self.object("I3", context)) }
        try context.performAndWait { () throws in
            try context.save()
            #expect(!context.hasChanges)
            context.undo()  // the delete of I3
            context.undo()  // the insert of I9
            context.undo()  // the text of I1
            #expect(context.hasChanges, "undone saved changes are changes again")
            #expect(try UndoModel.dump(context) == seeded)
            try context.save()
        }
        let fresh = container.newBackgroundContext()
        try fresh.performAndWait { () throws in #expect(try UndoModel.dump(fresh) == seeded) }
        // And redo carries all three forward again, through another save.
        let redone = try context.performAndWait { () throws -> [String] in
            context.redo()
            context.redo()
            context.redo()
            try context.save()
            return try UndoModel.dump(context)
        }
        let again = container.newBackgroundContext()
        try again.performAndWait { () throws in
            #expect(try UndoModel.dump(again) == redone)
            #expect(try UndoModel.object("I3", in: again) == nil)
            #expect(try UndoModel.object("I9", in: again) != nil)
        }
    }

    @Test("Grouping: a perform block is one step, begin/endUndoGrouping spans blocks, a new change clears redo")
    func grouping() throws {
        let (container, context) = try Self.editing()
        let manager = try #require(context.undoManager)
        let seeded = try context.performAndWait { try UndoModel.dump(context) }
        try context.performAndWait { try Self.object("I1", context).setValue("one", forKey: "text") }
        try context.performAndWait { try Self.object("I2", context).setValue("two", forKey: "text") }
        let afterTwo = try context.performAndWait { try UndoModel.dump(context) }
        manager.beginUndoGrouping()
        try context.performAndWait { try Self.object("I3", context).setValue("three", forKey: "text") }
        try context.performAndWait { try Self.object("I4", context).setValue("four", forKey: "text") }
        manager.endUndoGrouping()
        try context.performAndWait { () throws in
            context.undo()
            #expect(try UndoModel.dump(context) == afterTwo, "the explicit group is one step")
            context.undo()
            context.undo()
            #expect(try UndoModel.dump(context) == seeded)
            #expect(!manager.canUndo)
            #expect(manager.canRedo)
            try Self.object("I1", context).setValue("new", forKey: "text")
            context.processPendingChanges()
            #expect(!manager.canRedo, "a new change clears redo")
            #expect(manager.canUndo)
        }
        _ = container
    }

    @Test("levelsOfUndo keeps the newest steps; removeAllActions, rollback and reset leave nothing to undo")
    func limits() throws {
        let (container, context) = try Self.editing()
        let manager = try #require(context.undoManager)
        manager.levelsOfUndo = 2
        for text in ["a", "b", "c"] {
            try context.performAndWait { try Self.object("I1", context).setValue(text, forKey: "text") }
        }
        try context.performAndWait { () throws in
            context.undo()
            context.undo()
            #expect(try Self.object("I1", context).value(forKey: "text") as? String == "a")
            context.undo()
            #expect(try Self.object("I1", context).value(forKey: "text") as? String == "a", "the oldest step was dropped")
            context.redo()
            #expect(manager.canUndo)
            manager.removeAllActions()
            #expect(!manager.canUndo && !manager.canRedo)
            try Self.object("I2", context).setValue("x", forKey: "text")
            context.processPendingChanges()
            context.rollback()
            #expect(!manager.canUndo)
            try Self.object("I2", context).setValue("y", forKey: "text")
            context.processPendingChanges()
            context.reset()
            #expect(!manager.canUndo)
        }
        _ = container
    }

    @Test("Taking undo states reads nothing from the store for attribute changes, and a context without a manager takes none")
    func costs() throws {
        let (container, context) = try Self.editing()
        let plain = container.newBackgroundContext()
        for target in [context, plain] {
            try target.performAndWait { () throws in
                let item = try Self.object("I1", target)
                let before = container.coordinator.sqlCounters.statementsExecuted
                try item.setValue("changed", forKey: "text")
                target.processPendingChanges()
                #expect(container.coordinator.sqlCounters.statementsExecuted == before)
                #expect(target.undoCapture.isEmpty)
            }
        }
        #expect(plain.undoManager == nil)
        #expect(context.undoManager?.canUndo == true)
    }
}
