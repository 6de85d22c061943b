import Foundation
import Testing
@testable import Faultline

/// Core Data: transient properties "are not saved to the persistent store, but
/// are still managed for undo, redo, validation, and so on". A transient value
/// belongs to one object in one context: no other context sees it (not through
/// the row cache, not through a parent), a refresh releases it unless the
/// object has changes, a merge of another save keeps it, and it is never a
/// persistent change.
@Suite("Transient values stay in their object: never stored, shared, or reported as persistent changes")
struct TransientValueTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Item") {
                Attribute("name", .string)
                Attribute("scratch", .string).transient()
            }
        }
    }

    /// An item named "n", saved by a context of its own.
    private func savedItem(_ container: PersistentContainer, scratch: String? = nil) throws -> ManagedObjectID {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValue("n", forKey: "name")
            try item.setValue(scratch, forKey: "scratch")
            try context.save()
            return item.objectID
        }
    }

    @Test("Another context reads a saved object's transient attribute as nil, after an insert and after an update")
    func otherContextsDoNotSeeTransients() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let a = container.newBackgroundContext()
        let (id, item) = try a.performAndWait { () -> (ManagedObjectID, ManagedObject) in
            let item = try a.insertNewObject(forEntityName: "Item")
            try item.setValue("n", forKey: "name")
            try item.setValue("secret", forKey: "scratch")
            try a.save()
            // The saving context's own object keeps it.
            #expect(item.value(forKey: "scratch") as? String == "secret")
            return (item.objectID, item)
        }
        let b = container.newBackgroundContext()
        try b.performAndWait {
            let copy = try b.existingObject(with: id)
            #expect(copy.value(forKey: "name") as? String == "n")
            #expect(copy.value(forKey: "scratch") == nil)
        }
        // An update holding the whole row caches it too.
        try a.performAndWait {
            try item.setValue("m", forKey: "name")
            try item.setValue("also secret", forKey: "scratch")
            try a.save()
        }
        let c = container.newBackgroundContext()
        try c.performAndWait {
            let copy = try c.existingObject(with: id)
            #expect(copy.value(forKey: "name") as? String == "m")
            #expect(copy.value(forKey: "scratch") == nil)
        }
    }

    @Test("refresh(mergeChanges: false) releases a transient value, saved with the object or set since")
    func refreshWithoutMergingReleasesTransients() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let id = try savedItem(container)
        let a = container.newBackgroundContext()
        try a.performAndWait {
            let item = try a.existingObject(with: id)
            try item.setValue("saved", forKey: "scratch")
            try a.save()
            try item.setValue("later", forKey: "scratch")
            a.refresh(item, mergeChanges: false)
            #expect(item.value(forKey: "scratch") == nil)
            #expect(item.value(forKey: "name") as? String == "n")

            try item.setValue("saved again", forKey: "scratch")
            try a.save()
            a.refresh(item, mergeChanges: false)
            #expect(item.value(forKey: "scratch") == nil)
            #expect(!item.hasChanges)
        }
    }

    @Test("A merging refresh keeps a changed object's transient values; an unchanged object turns into a fault and loses them")
    func mergingRefreshKeepsTransientsOfChangedObjects() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let id = try savedItem(container)
        let a = container.newBackgroundContext()
        let item = try a.performAndWait {
            let item = try a.existingObject(with: id)
            try item.setValue("saved with it", forKey: "scratch")
            try a.save()
            return item
        }
        let rename = { (name: String) in
            let b = container.newBackgroundContext()
            try b.performAndWait {
                try b.existingObject(with: id).setValue(name, forKey: "name")
                try b.save()
            }
        }
        try rename("renamed")
        // Saved, so unchanged: Core Data's refreshAllObjects() resets such an
        // object's transient (CoreDataPlus's test_InvestigationTransientProperties).
        try a.performAndWait {
            a.refresh(item, mergeChanges: true)
            #expect(item.isFault)
            #expect(item.value(forKey: "name") as? String == "renamed")
            #expect(item.value(forKey: "scratch") == nil)
            try item.setValue("unsaved", forKey: "scratch")
        }
        // An unsaved transient change is a change: it stays through the merge.
        try rename("renamed again")
        a.performAndWait {
            a.refreshAllObjects()
            #expect(!item.isFault)
            #expect(item.value(forKey: "name") as? String == "renamed again")
            #expect(item.value(forKey: "scratch") as? String == "unsaved")
            #expect(item.hasChanges)
        }
        try rename("third")
        a.performAndWait {
            a.refresh(item, mergeChanges: true)
            #expect(item.value(forKey: "name") as? String == "third")
            #expect(item.value(forKey: "scratch") as? String == "unsaved")
        }
        // A value cached with the primitive setter, as awakeFromFetch would,
        // is no change: the object is unchanged and faults, as in Core Data,
        // whose awakeFromFetch computes such values again.
        try a.performAndWait {
            try a.save()
            try item.setPrimitiveValue("cached", forKey: "scratch")
            #expect(!item.hasChanges)
            a.refreshAllObjects()
            #expect(item.isFault)
            #expect(item.value(forKey: "scratch") == nil)
        }
    }

    @Test("Merging another context's save keeps an unchanged object's transient values while its persistent ones refresh")
    func mergeKeepsTransients() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let id = try savedItem(container)
        let a = container.newBackgroundContext()
        a.automaticallyMergesChangesFromParent = true
        let item = try a.performAndWait {
            let item = try a.existingObject(with: id)
            try item.setValue("kept", forKey: "scratch")
            try a.save()
            return item
        }
        let b = container.newBackgroundContext()
        try b.performAndWait {
            try b.existingObject(with: id).setValue("renamed", forKey: "name")
            try b.save()
        }
        a.performAndWait {
            #expect(item.value(forKey: "name") as? String == "renamed")
            #expect(item.value(forKey: "scratch") as? String == "kept")
        }
    }

    @Test("changedValues() reports persistent attributes only, of an update and of an insert")
    func changedValuesLeaveOutTransients() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let id = try savedItem(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let item = try context.existingObject(with: id)
            try item.setValue("x", forKey: "scratch")
            #expect(item.changedValues().isEmpty)
            try item.setValue("m", forKey: "name")
            #expect(Set(item.changedValues().keys) == ["name"])

            let fresh = try context.insertNewObject(forEntityName: "Item")
            try fresh.setValue("new", forKey: "name")
            try fresh.setValue("x", forKey: "scratch")
            #expect(Set(fresh.changedValues().keys) == ["name"])
        }
    }

    @Test("A transient-only change: updated and hasChanges, not hasPersistentChangedValues; its save writes nothing")
    func transientOnlyChangeWritesNothing() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let id = try savedItem(container)
        // Reads version 1 of the row before the transient-only save.
        let other = container.newBackgroundContext()
        let otherItem = try other.performAndWait { try other.existingObject(with: id) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let item = try context.existingObject(with: id)
            #expect(!item.hasPersistentChangedValues)
            try item.setValue("x", forKey: "scratch")
            #expect(item.hasChanges && item.isUpdated)
            #expect(context.updatedObjects == [item])
            #expect(!item.hasPersistentChangedValues)
            container.coordinator.resetCounters()
            try context.save()
            // No transaction, no UPDATE, no Z_OPT bump.
            #expect(container.coordinator.sqlCounters.statementsExecuted == 0)
            #expect(!context.hasChanges && !item.hasChanges)
            #expect(item.value(forKey: "scratch") as? String == "x")

            try item.setValue("m", forKey: "name")
            #expect(item.hasPersistentChangedValues)
            let fresh = try context.insertNewObject(forEntityName: "Item")
            try fresh.setValue("new", forKey: "name")
            #expect(fresh.hasPersistentChangedValues)
            context.rollback()
        }
        // The row's version did not move: a save over version 1 finds no conflict.
        try other.performAndWait {
            try otherItem.setValue("from other", forKey: "name")
            try other.save()
        }
    }

    @Test("A child reads its parent's persistent values, not its transients; a child's save pushes its transients to the parent only")
    func childContextsDoNotShareTransients() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let id = try savedItem(container)
        let parent = container.newBackgroundContext()
        let parentItem = try parent.performAndWait {
            let item = try parent.existingObject(with: id)
            try item.setValue("parent's", forKey: "scratch")
            try item.setValue("unsaved name", forKey: "name")
            return item
        }
        let child = parent.newChildContext()
        try child.performAndWait {
            let item = try child.existingObject(with: id)
            #expect(item.value(forKey: "name") as? String == "unsaved name")
            #expect(item.value(forKey: "scratch") == nil)
            try item.setValue("child's", forKey: "scratch")
            try item.setValue("child name", forKey: "name")
            try child.save()
            #expect(item.value(forKey: "scratch") as? String == "child's")
            // Its baseline after the save holds no transient value.
            child.refresh(item, mergeChanges: false)
            #expect(item.value(forKey: "name") as? String == "child name")
            #expect(item.value(forKey: "scratch") == nil)
        }
        let sibling = parent.newChildContext()
        try sibling.performAndWait {
            let item = try sibling.existingObject(with: id)
            #expect(item.value(forKey: "name") as? String == "child name")
            #expect(item.value(forKey: "scratch") == nil)
        }
        try parent.performAndWait {
            // A child's save pushes its transient values too (CoreDataPlus's
            // test_InvestigationTransientPropertiesBehaviorInParentChildContextRelationship).
            #expect(parentItem.value(forKey: "scratch") as? String == "child's")
            try parent.save()
            #expect(parentItem.value(forKey: "name") as? String == "child name")
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let item = try reader.existingObject(with: id)
            #expect(item.value(forKey: "name") as? String == "child name")
            #expect(item.value(forKey: "scratch") == nil)
        }
    }
}
