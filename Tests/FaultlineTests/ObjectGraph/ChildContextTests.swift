import Foundation
import Testing
@testable import Faultline

/// A child context reads through its parent and saves into it: Core Data's
/// editor pattern (a scratch pad saved into the parent or thrown away).
@Suite("Child contexts")
struct ChildContextTests {
    /// Ann (with one book) and Bob saved; a parent context on the store.
    static func seeded() throws -> (PersistentContainer, URL, ManagedObjectContext) {
        let (container, url) = try LibraryModel.container()
        let parent = container.newBackgroundContext()
        try parent.performAndWait {
            let ann = try parent.insertNewObject(forEntityName: "Author")
            try ann.setValue("Ann", forKey: "name")
            let book = try parent.insertNewObject(forEntityName: "Book")
            try book.setValue("Ann's first", forKey: "title")
            try book.setValue(ann, forKey: "author")
            let bob = try parent.insertNewObject(forEntityName: "Author")
            try bob.setValue("Bob", forKey: "name")
            try parent.save()
        }
        return (container, url, parent)
    }

    static func names(_ context: ManagedObjectContext) throws -> [String] {
        var request = FetchRequest(entityName: "Author")
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
    }

    static func author(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Author", predicate: try FetchPredicate(format: "name == %@", name))).first)
    }

    static func statements(_ container: PersistentContainer, _ body: () throws -> Void) rethrows -> Int {
        let before = container.coordinator.sqlCounters.statementsExecuted
        try body()
        return container.coordinator.sqlCounters.statementsExecuted - before
    }

    @Test("Cancel: a child's edits thrown away — rolled back or dropped — leave the parent and the store as they were")
    func cancel() throws {
        let (container, url, parent) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        var child: ManagedObjectContext? = parent.newChildContext()
        try child?.performAndWait {
            guard let child else { return }
            try Self.author("Ann", in: child).setValue("Annie", forKey: "name")
            let cid = try child.insertNewObject(forEntityName: "Author")
            try cid.setValue("Cid", forKey: "name")
            #expect(try Self.names(child) == ["Annie", "Bob", "Cid"])
            child.rollback()
            #expect(try Self.names(child) == ["Ann", "Bob"])
            try Self.author("Bob", in: child).setValue("Bobby", forKey: "name")
        }
        child = nil
        try parent.performAndWait { () throws in
            #expect(!parent.hasChanges)
            #expect(try Self.names(parent) == ["Ann", "Bob"])
        }
        _ = container
    }

    @Test("Save: the child's save writes nothing and the parent then holds the changes; the parent's save writes them")
    func saveThroughParent() throws {
        let (container, url, parent) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let child = parent.newChildContext()
        try child.performAndWait {
            try Self.author("Ann", in: child).setValue("Annie", forKey: "name")
            child.delete(try Self.author("Bob", in: child))
            let pushed = try Self.statements(container) { try child.save() }
            #expect(pushed == 0, "a child's save reaches no store")
            #expect(!child.hasChanges)
        }
        try parent.performAndWait {
            #expect(parent.hasChanges)
            #expect(try Self.names(parent) == ["Annie"])
            try parent.save()
        }
        let fresh = container.newBackgroundContext()
        try fresh.performAndWait { () throws in #expect(try Self.names(fresh) == ["Annie"]) }
    }

    @Test("Insert: a child's new author and book reach the parent under their temporary IDs, with inverses, and the store with permanent ones")
    func insertThroughParent() throws {
        let (container, url, parent) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let child = parent.newChildContext()
        let (cidID, bookID) = try child.performAndWait {
            let cid = try child.insertNewObject(forEntityName: "Author")
            try cid.setValue("Cid", forKey: "name")
            let book = try child.insertNewObject(forEntityName: "Book")
            try book.setValue("Cid's first", forKey: "title")
            try book.setValue(cid, forKey: "author")
            try child.save()
            return (cid.objectID, book.objectID)
        }
        #expect(cidID.isTemporaryID)
        let saved = try parent.performAndWait {
            let cid = try #require(parent.registeredObject(for: cidID))
            #expect(cid.isInserted)
            let books = cid.value(forKey: "books") as? [ManagedObject]
            #expect(books?.map(\.objectID) == [bookID], "the inverse came with the book")
            #expect(try Self.names(parent) == ["Ann", "Bob", "Cid"])
            try parent.save()
            #expect(!cid.objectID.isTemporaryID)
            return cid.objectID
        }
        let fresh = container.newBackgroundContext()
        try fresh.performAndWait {
            let cid = try fresh.existingObject(with: saved)
            #expect((cid.value(forKey: "books") as? [ManagedObject])?.count == 1)
        }
    }

    @Test("A child sees its parent's unsaved changes: its fetches and faults show the parent's values, inserts and deletions")
    func readsThroughParent() throws {
        let (container, url, parent) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let annID = try parent.performAndWait {
            let ann = try Self.author("Ann", in: parent)
            try ann.setValue("Anna", forKey: "name")
            parent.delete(try Self.author("Bob", in: parent))
            let dee = try parent.insertNewObject(forEntityName: "Author")
            try dee.setValue("Dee", forKey: "name")
            return ann.objectID
        }
        let child = parent.newChildContext()
        try child.performAndWait {
            #expect(try Self.names(child) == ["Anna", "Dee"])
            #expect(try child.count(for: FetchRequest(entityName: "Author")) == 2)
            let ann = try child.existingObject(with: annID)
            #expect(ann.value(forKey: "name") as? String == "Anna")
            #expect((ann.value(forKey: "books") as? [ManagedObject])?.count == 1)
        }
        _ = container
    }

    @Test("Grandchildren: an edit saved into the child, the child's save into the parent, the parent's into the store")
    func grandchild() throws {
        let (container, url, parent) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let child = parent.newChildContext()
        let grandchild = child.newChildContext()
        try grandchild.performAndWait {
            try Self.author("Bob", in: grandchild).setValue("Robert", forKey: "name")
            try grandchild.save()
        }
        try child.performAndWait {
            #expect(try Self.names(child) == ["Ann", "Robert"])
            try child.save()
        }
        try parent.performAndWait {
            #expect(try Self.names(parent) == ["Ann", "Robert"])
            try parent.save()
        }
        let fresh = container.newBackgroundContext()
        try fresh.performAndWait { () throws in #expect(try Self.names(fresh) == ["Ann", "Robert"]) }
    }

    @Test("A child that merges automatically follows what a sibling saves into their parent, and what the parent saves to the store")
    func siblingsMerge() throws {
        let (container, url, parent) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let editor = parent.newChildContext(), viewer = parent.newChildContext()
        viewer.automaticallyMergesChangesFromParent = true
        let annID = try viewer.performAndWait {
            let ann = try Self.author("Ann", in: viewer)
            #expect(ann.value(forKey: "name") as? String == "Ann")
            return ann.objectID
        }
        try editor.performAndWait {
            try editor.existingObject(with: annID).setValue("Annie", forKey: "name")
            try editor.save()
        }
        try viewer.performAndWait { () throws in
            #expect(try viewer.existingObject(with: annID).value(forKey: "name") as? String == "Annie")
        }
        try parent.performAndWait {
            try Self.author("Annie", in: parent).setValue("Anne", forKey: "name")
            try parent.save()
        }
        try viewer.performAndWait { () throws in
            viewer.processPendingChanges()
            #expect(try viewer.existingObject(with: annID).value(forKey: "name") as? String == "Anne")
        }
        _ = container
    }

    @Test("A child that merges automatically follows what its parent, itself a child, saves into its own parent")
    func grandchildFollowsParentSave() throws {
        let (container, url, root) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let editor = root.newChildContext(), detail = editor.newChildContext()
        detail.automaticallyMergesChangesFromParent = true
        let (ann, bob) = try detail.performAndWait {
            let ann = try Self.author("Ann", in: detail), bob = try Self.author("Bob", in: detail)
            #expect(ann.value(forKey: "name") as? String == "Ann")
            #expect(bob.value(forKey: "name") as? String == "Bob")
            return (ann, bob)
        }
        try editor.performAndWait {
            try editor.existingObject(with: ann.objectID).setValue("Annie", forKey: "name")
            editor.delete(try editor.existingObject(with: bob.objectID))
            try editor.insertNewObject(forEntityName: "Author").setValue("Cyd", forKey: "name")
            try editor.save()
        }
        try detail.performAndWait { () throws in
            detail.processPendingChanges()
            #expect(ann.value(forKey: "name") as? String == "Annie")
            #expect(bob.isDeleted)
            #expect(try Self.names(detail) == ["Annie", "Cyd"])
        }
        // Not twice: the parent's save into the store after it reaches the
        // grandchild once, as a store commit.
        try editor.performAndWait { try editor.save() }
        try root.performAndWait { try root.save() }
        try detail.performAndWait { () throws in
            detail.processPendingChanges()
            #expect(try Self.names(detail) == ["Annie", "Cyd"])
        }
        _ = container
    }

    @Test("A child's controller starts from its parent's unsaved changes, with or without a batch size", arguments: [0, 2])
    func controllerOverParentChanges(batchSize: Int) throws {
        let (container, url, parent) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        try parent.performAndWait {
            try parent.insertNewObject(forEntityName: "Author").setValue("Cy", forKey: "name")
            parent.delete(try Self.author("Bob", in: parent))
            try Self.author("Ann", in: parent).setValue("Zoe", forKey: "name")
        }
        let child = parent.newChildContext()
        var request = FetchRequest(entityName: "Author")
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        request.fetchBatchSize = batchSize
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: child)
        try child.performAndWait { () throws in
            try controller.performFetch()
            let held = controller.fetchedObjects.map(Array.init) ?? []
            #expect(held.compactMap { $0.value(forKey: "name") as? String } == ["Cy", "Zoe"])
            #expect(try child.fetch(request).compactMap { $0.value(forKey: "name") as? String } == ["Cy", "Zoe"])
        }
        _ = container
    }

    @Test("A merging child's controller keeps one entry per object when the parent saves what the child inserted")
    func controllerAfterParentSave() throws {
        let (container, url, parent) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let child = parent.newChildContext()
        child.automaticallyMergesChangesFromParent = true
        var request = FetchRequest(entityName: "Author")
        request.sortDescriptors = [FetchSortDescriptor(key: "name")]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: child)
        let dee = try child.performAndWait {
            try controller.performFetch()
            let dee = try child.insertNewObject(forEntityName: "Author")
            try dee.setValue("Dee", forKey: "name")
            try child.save()
            return dee
        }
        try parent.performAndWait { try parent.save() }
        try child.performAndWait { () throws in
            child.processPendingChanges()
            let held = controller.fetchedObjects.map(Array.init) ?? []
            #expect(held.compactMap { $0.value(forKey: "name") as? String } == ["Ann", "Bob", "Dee"])
            #expect(!dee.objectID.isTemporaryID)
            #expect(held.last === dee)
            #expect(try child.fetch(request).count == 3)
        }
        _ = container
    }

    @Test("An editor keeps going after the parent saves: the child's objects take the permanent IDs, and its next save still reaches them")
    func editAfterParentSave() throws {
        let (container, url, parent) = try Self.seeded()
        defer { LibraryModel.remove(url) }
        let child = parent.newChildContext()
        let dee = try child.performAndWait {
            let dee = try child.insertNewObject(forEntityName: "Author")
            try dee.setValue("Dee", forKey: "name")
            try child.save()
            return dee
        }
        try parent.performAndWait { try parent.save() }
        try child.performAndWait {
            #expect(!dee.objectID.isTemporaryID, "the child took the permanent ID")
            try dee.setValue("Deirdre", forKey: "name")
            try child.save()
        }
        try parent.performAndWait {
            #expect(parent.registeredObject(for: dee.objectID)?.value(forKey: "name") as? String == "Deirdre")
            try parent.save()
        }
        let fresh = container.newBackgroundContext()
        try fresh.performAndWait { () throws in #expect(try Self.names(fresh) == ["Ann", "Bob", "Deirdre"]) }
    }
}
