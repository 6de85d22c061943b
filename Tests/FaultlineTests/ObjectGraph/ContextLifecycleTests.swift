import Foundation
import Testing
@testable import Faultline

/// What a context promises about its own state: change tracking, rollback,
/// reset, refresh, the did-save notification and merging other contexts' saves.
@Suite("Context state and merging")
struct ContextLifecycleTests {
    @Test("Change tracking: inserted, updated and deleted sets; changedValues and committedValues")
    func changeTracking() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ursula", forKey: "name")
            #expect(context.insertedObjects == [author])
            #expect(context.hasChanges)
            try context.save()
            #expect(!context.hasChanges)
            try author.setValue("Ursula K.", forKey: "name")
            #expect(context.updatedObjects == [author])
            #expect(author.changedValues()["name"] as? String == "Ursula K.")
            #expect(author.committedValues(forKeys: ["name"])["name"] as? String == "Ursula")
            try author.setValue("Ursula", forKey: "name")
            #expect(author.changedValues().isEmpty)
            context.delete(author)
            #expect(context.deletedObjects == [author])
        }
    }

    @Test("A value set back to the committed one, or an insert deleted again, leaves the context without changes")
    func revertedChanges() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ursula", forKey: "name")
            try context.save()
            try author.setValue("Ursula K.", forKey: "name")
            #expect(context.hasChanges && context.updatedObjects == [author])
            try author.setValue("Ursula", forKey: "name")
            #expect(!author.hasChanges && context.updatedObjects.isEmpty)
            #expect(!context.hasChanges)
            let draft = try context.insertNewObject(forEntityName: "Author")
            #expect(context.hasChanges)
            context.delete(draft)
            #expect(context.insertedObjects.isEmpty && context.deletedObjects.isEmpty)
            #expect(!context.hasChanges)
            // This store's own counter: the statement log is the process's, shared with parallel tests.
            let before = container.coordinator.sqlCounters.statementsExecuted
            try context.save()
            #expect(container.coordinator.sqlCounters.statementsExecuted == before)
        }
    }

    @Test("committedValues reports relationships as last read or saved, and leaves out transient properties")
    func committedRelationships() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let setUp = container.newBackgroundContext()
        let (ursula, leGuin) = try setUp.performAndWait {
            let ursula = try setUp.insertNewObject(forEntityName: "Author")
            try ursula.setValue("Ursula", forKey: "name")
            let leGuin = try setUp.insertNewObject(forEntityName: "Author")
            try leGuin.setValue("Le Guin", forKey: "name")
            for title in ["Earthsea", "Tehanu"] {
                let book = try setUp.insertNewObject(forEntityName: "Book")
                try book.setValue(title, forKey: "title")
                try book.setValue(ursula, forKey: "author")
            }
            try setUp.save()
            return (ursula.objectID, leGuin.objectID)
        }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let earthsea = try #require(try context.fetch(FetchRequest(entityName: "Book", format: "title == %@", "Earthsea")).first)
            let newAuthor = try context.existingObject(with: leGuin)
            try earthsea.setValue(newAuthor, forKey: "author")
            try earthsea.setValue("A Wizard of Earthsea", forKey: "title")
            let committed = earthsea.committedValues(forKeys: nil)
            #expect(committed["title"] as? String == "Earthsea")
            #expect((committed["author"] as? ManagedObject)?.objectID == ursula)
            #expect(committed["chapters"] as? [ManagedObject] == [])
            #expect(Set(committed.keys) == ["title", "pages", "price", "author", "chapters", "shelves"])
            #expect(earthsea.committedValues(forKeys: ["author"]).keys.map { $0 } == ["author"])
            // The old author's books in memory lost Earthsea; committed, it still has both.
            let oldAuthor = try context.object(with: ursula)
            #expect((oldAuthor.value(forKey: "books") as? [ManagedObject])?.count == 1)
            let committedBooks = oldAuthor.committedValues(forKeys: ["books"])["books"] as? [ManagedObject] ?? []
            #expect(Set(committedBooks.compactMap { $0.value(forKey: "title") as? String }) == ["A Wizard of Earthsea", "Tehanu"])
            #expect(newAuthor.committedValues(forKeys: ["books"])["books"] as? [ManagedObject] == [])
            #expect((oldAuthor.value(forKey: "books") as? [ManagedObject])?.count == 1)
            let unsaved = try context.insertNewObject(forEntityName: "Author")
            #expect(unsaved.committedValues(forKeys: nil).isEmpty)
            // A fault fires first.
            context.refresh(oldAuthor, mergeChanges: false)
            #expect(oldAuthor.committedValues(forKeys: ["name"])["name"] as? String == "Ursula")
            // Deleted and saved, out of the context: attributes still, relationships not.
            context.delete(unsaved)
            context.delete(oldAuthor)
            try context.save()
            #expect(oldAuthor.managedObjectContext == nil)
            #expect(oldAuthor.committedValues(forKeys: nil).keys.sorted() == ["born", "name"])
        }
        let drafts = ManagedObjectModel {
            Entity("Note") {
                Attribute("text", .string)
                Attribute("draft", .string).transient()
            }
        }
        let (notes, notesURL) = try LibraryModel.container(drafts)
        defer { LibraryModel.remove(notesURL) }
        let noteContext = notes.newBackgroundContext()
        try noteContext.performAndWait {
            let note = try noteContext.insertNewObject(forEntityName: "Note")
            try note.setValue("saved", forKey: "text")
            try note.setValue("typing…", forKey: "draft")
            try noteContext.save()
            #expect(Set(note.committedValues(forKeys: nil).keys) == ["text"])
        }
    }

    @Test("Changed, refreshed without merging, changed again: one update, no conflict with itself")
    func changeAfterRefresh() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ursula", forKey: "name")
            try context.save()
            try author.setValue("Discarded", forKey: "name")
            context.refresh(author, mergeChanges: false)
            try author.setValue("Ursula K.", forKey: "name")
            #expect(context.updatedObjects == [author])
            container.coordinator.resetCounters()
            try context.save()
            // BEGIN, the uniqueness check on name, one UPDATE, COMMIT.
            #expect(container.coordinator.sqlCounters.statementsExecuted == 4)
        }
        let check = container.newBackgroundContext()
        try check.performAndWait {
            let renamed = try FetchRequest(entityName: "Author", format: "name == %@", "Ursula K.")
            #expect(try check.count(for: renamed) == 1)
        }
    }

    @Test("Rollback discards inserts, updates and deletes")
    func rollback() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ursula", forKey: "name")
            try context.save()
            try author.setValue("Changed", forKey: "name")
            let extra = try context.insertNewObject(forEntityName: "Author")
            try extra.setValue("Extra", forKey: "name")
            context.rollback()
            #expect(!context.hasChanges)
            #expect(author.value(forKey: "name") as? String == "Ursula")
            #expect(extra.managedObjectContext == nil)
            context.delete(author)
            context.rollback()
            #expect(!author.isDeleted)
            #expect(try context.count(for: FetchRequest(entityName: "Author")) == 1)
        }
    }

    @Test("Reset forgets every object; refresh turns an object back into a fault")
    func resetAndRefresh() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ursula", forKey: "name")
            try context.save()
            try author.setValue("Unsaved", forKey: "name")
            context.refresh(author, mergeChanges: false)
            #expect(author.isFault)
            #expect(author.value(forKey: "name") as? String == "Ursula")
            let id = author.objectID
            context.reset()
            #expect(context.registeredObjects.isEmpty)
            #expect(try context.object(with: id) !== author)
        }
    }

    @Test("Refreshing with merge keeps local changes, also for an entity without to-one relationships")
    func refreshMergeWithoutToOne() throws {
        let (container, url) = try LibraryModel.container(ShopModel.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try tag.setValue("swift", forKey: "label")
            try context.save()
            container.coordinator.rowCache.removeAll()
            try tag.setValue("Swift", forKey: "label")
            context.refresh(tag, mergeChanges: true)
            #expect(tag.value(forKey: "label") as? String == "Swift")
            #expect(tag.isUpdated)
            context.refresh(tag, mergeChanges: false)
            #expect(tag.value(forKey: "label") as? String == "swift")
        }
    }

    @Test("A save posts the did-save notification with the object IDs; a merging context drops deleted objects and refreshes updated ones")
    func notificationsAndMerging() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let writer = container.newBackgroundContext()
        let reader = container.newBackgroundContext()
        reader.automaticallyMergesChangesFromParent = true
        let ids = try writer.performAndWait {
            let keep = try writer.insertNewObject(forEntityName: "Author")
            try keep.setValue("Keep", forKey: "name")
            let drop = try writer.insertNewObject(forEntityName: "Author")
            try drop.setValue("Drop", forKey: "name")
            try writer.save()
            return (keep.objectID, drop.objectID)
        }
        let (keep, drop) = try reader.performAndWait {
            (try reader.existingObject(with: ids.0), try reader.existingObject(with: ids.1))
        }
        final class Received: @unchecked Sendable { var changes: ContextDidSave? }
        let received = Received()
        let observer = NotificationCenter.default.addObserver(
            forName: .managedObjectContextDidSave, object: writer, queue: nil
        ) { notification in
            received.changes = notification.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.performAndWait {
            try writer.existingObject(with: ids.0).setValue("Kept", forKey: "name")
            writer.delete(try writer.existingObject(with: ids.1))
            try writer.save()
        }
        #expect(received.changes?.updatedObjectIDs == [ids.0])
        #expect(received.changes?.deletedObjectIDs == [ids.1])
        reader.performAndWait {
            reader.processPendingChanges()
            #expect(keep.isFault)
            #expect(keep.value(forKey: "name") as? String == "Kept")
            #expect(drop.isDeleted)
            #expect(reader.registeredObject(for: ids.1) == nil)
        }
    }

    @Test("The view context runs on the main actor")
    @MainActor
    func viewContext() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.viewContext
        #expect(context === container.viewContext)
        let author = try context.insertNewObject(forEntityName: "Author")
        try author.setValue("Main", forKey: "name")
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Author")) == 1)
    }

    @Test("A staleness interval of zero ignores cached rows")
    func staleness() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ursula", forKey: "name")
            try context.save()
            _ = try context.fetch(FetchRequest(entityName: "Author"))
            context.reset()
            context.stalenessInterval = 0
            let fresh = try #require(try context.fetch(FetchRequest(entityName: "Author")).first)
            container.coordinator.resetCounters()
            _ = fresh.value(forKey: "name")
            #expect(context.counters.faultsFulfilledBySQL == 1)
            #expect(container.coordinator.sqlCounters.statementsExecuted == 1)
        }
    }

    @Test("Unknown keys and wrong types are typed errors that change nothing")
    func badInput() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            #expect(throws: ObjectAccessError.unknownKey(entity: "Author", key: "nope")) {
                try author.setValue(1, forKey: "nope")
            }
            #expect(throws: ObjectAccessError.self) { try author.setValue(Date(), forKey: "name") }
            #expect(throws: ObjectAccessError.self) { try author.setValue("not an object", forKey: "publisher") }
            #expect(throws: FetchError.unknownEntity("Nope")) { try context.fetch(FetchRequest(entityName: "Nope")) }
            #expect(author.value(forKey: "name") == nil)
        }
    }

    @Test("userInfo keeps each context's own values through a save and a reset, as Core Data's does")
    func userInfo() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext(), other = container.newBackgroundContext()
        try context.performAndWait {
            context.userInfo["cache"] = ["Ana": 1]
            try context.insertNewObject(forEntityName: "Author").setValue("Ana", forKey: "name")
            try context.save()
            context.reset()
            #expect(context.userInfo["cache"] as? [String: Int] == ["Ana": 1])
        }
        other.performAndWait { #expect(other.userInfo.isEmpty) }
    }
}
