import Foundation
import Testing
@testable import Faultline

/// Undo reverts the step's own changes: a value, a to-one or a member that a
/// merge of another context's save brought in after the step stays, and the
/// next save does not write the step's old values over it.
@Suite("Undo after a merge keeps what the merge brought")
struct UndoAfterMergeTests {
    /// A book "Earthsea" (300 pages) by Ursula, a second author Le Guin, and
    /// an editing context with an undo manager that merges automatically.
    static func library() throws -> (PersistentContainer, URL, ManagedObjectContext) {
        let (container, url) = try LibraryModel.container()
        let setUp = container.newBackgroundContext()
        try setUp.performAndWait {
            let ursula = try setUp.insertNewObject(forEntityName: "Author")
            try ursula.setValue("Ursula", forKey: "name")
            try setUp.insertNewObject(forEntityName: "Author").setValue("Le Guin", forKey: "name")
            let book = try setUp.insertNewObject(forEntityName: "Book")
            try book.setValue("Earthsea", forKey: "title")
            try book.setValue(300, forKey: "pages")
            try book.setValue(ursula, forKey: "author")
            try setUp.save()
        }
        let editor = container.newBackgroundContext()
        editor.undoManager = UndoManager()
        editor.automaticallyMergesChangesFromParent = true
        return (container, url, editor)
    }

    static func book(_ context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Book")).first)
    }

    static func author(_ name: String, _ context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Author", format: "name == %@", name)).first)
    }

    @Test("Undoing a change to an attribute a merge then changed in the store puts the step's old value back as a change the save writes")
    func undoOverMergedSameAttribute() throws {
        let (container, url, editor) = try Self.library()
        defer { LibraryModel.remove(url) }
        try editor.performAndWait { try Self.book(editor).setValue(50, forKey: "pages") }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            try Self.book(other).setValue(7, forKey: "pages")
            try other.save()
        }
        try editor.performAndWait { () throws in
            editor.processPendingChanges()
            let book = try Self.book(editor)
            #expect(book.value(forKey: "pages") as? Int64 == 50, "the editor's own change stays over the merge")
            editor.undo()
            #expect(book.value(forKey: "pages") as? Int64 == 300)
            #expect(editor.hasChanges)
            #expect(book.changedValues()["pages"] as? Int64 == 300)
            try editor.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait { () throws in #expect(try Self.book(reader).value(forKey: "pages") as? Int64 == 300) }
    }

    @Test("An attribute and a to-one another context saved after the step survive its undo and the next save")
    func mergedValuesStay() throws {
        let (container, url, editor) = try Self.library()
        defer { LibraryModel.remove(url) }
        try editor.performAndWait { try Self.book(editor).setValue("A Wizard of Earthsea", forKey: "title") }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let book = try Self.book(other)
            try book.setValue(320, forKey: "pages")
            try book.setValue(try Self.author("Le Guin", other), forKey: "author")
            try other.save()
        }
        try editor.performAndWait { () throws in
            editor.processPendingChanges()
            let book = try Self.book(editor)
            #expect(book.value(forKey: "pages") as? Int64 == 320)
            editor.undo()
            #expect(book.value(forKey: "title") as? String == "Earthsea")
            #expect(book.value(forKey: "pages") as? Int64 == 320)
            #expect((book.value(forKey: "author") as? ManagedObject)?.value(forKey: "name") as? String == "Le Guin")
            #expect(!editor.hasChanges)
            try book.setValue("Earthsea!", forKey: "title")
            try editor.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait { () throws in
            let book = try Self.book(reader)
            #expect(book.value(forKey: "title") as? String == "Earthsea!")
            #expect(book.value(forKey: "pages") as? Int64 == 320)
            #expect((book.value(forKey: "author") as? ManagedObject)?.value(forKey: "name") as? String == "Le Guin")
        }
    }

    @Test("A member another context moved in after the step stays when the step's own member leaves")
    func mergedMemberStays() throws {
        let (container, url, editor) = try Self.library()
        defer { LibraryModel.remove(url) }
        try editor.performAndWait {
            let draft = try editor.insertNewObject(forEntityName: "Book")
            try draft.setValue("Draft", forKey: "title")
            try Self.author("Le Guin", editor).addObject(draft, toRelationship: "books")
        }
        // Saved, so the merge below reloads Le Guin's books from the store.
        try editor.performAndWait { try editor.save() }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            try Self.book(other, titled: "Earthsea").setValue(try Self.author("Le Guin", other), forKey: "author")
            try other.save()
        }
        func titles() throws -> [String] {
            ((try Self.author("Le Guin", editor).value(forKey: "books") as? [ManagedObject]) ?? [])
                .compactMap { $0.value(forKey: "title") as? String }.sorted()
        }
        try editor.performAndWait { () throws in
            editor.processPendingChanges()
            #expect(try titles() == ["Draft", "Earthsea"])
            editor.undo()
            #expect(try titles() == ["Earthsea"])
            try editor.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait { () throws in
            #expect(try reader.count(for: FetchRequest(entityName: "Book")) == 1)
            #expect((try Self.book(reader, titled: "Earthsea").value(forKey: "author") as? ManagedObject)?.value(forKey: "name") as? String == "Le Guin")
        }
    }

    @Test("Undoing an edit of a book another context's save or a merged batch delete deleted since does not bring it back",
          arguments: [false, true])
    func undoDoesNotResurrect(batch: Bool) throws {
        let (container, url, editor) = try Self.library()
        defer { LibraryModel.remove(url) }
        let id = try editor.performAndWait { () throws -> ManagedObjectID in
            let book = try Self.book(editor)
            try book.setValue("Earthsea, revised", forKey: "title")
            try editor.save()
            return book.objectID
        }
        if batch {
            let result = try container.coordinator.execute(BatchDeleteRequest(objectIDs: [id]))
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [editor])
        } else {
            let other = container.newBackgroundContext()
            try other.performAndWait {
                other.delete(try other.existingObject(with: id))
                try other.save()
            }
        }
        try editor.performAndWait { () throws in
            editor.processPendingChanges()
            #expect(editor.registeredObject(for: id) == nil)
            editor.undo()
            #expect(editor.insertedObjects.isEmpty)
            #expect(!editor.hasChanges)
            try editor.save()
        }
        let reader = container.newBackgroundContext()
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest(entityName: "Book")) } == 0)
    }

    static func book(_ context: ManagedObjectContext, titled title: String) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Book", format: "title == %@", title)).first)
    }
}
