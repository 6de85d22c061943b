import Foundation
import Testing
@testable import Faultline

/// Refreshing an object whose deletion is pending: `mergeChanges: false`
/// discards the deletion (its delete rules never run), `mergeChanges: true`
/// and `refreshAllObjects()` keep it, as Core Data keeps unsaved changes.
@Suite("Refreshing an object whose deletion is pending")
struct RefreshDeletedObjectTests {
    /// A saved author with two books (cascade), and a fresh context.
    static func library() throws -> (PersistentContainer, URL, ManagedObjectContext) {
        let (container, url) = try LibraryModel.container()
        let setUp = container.newBackgroundContext()
        try setUp.performAndWait {
            let author = try setUp.insertNewObject(forEntityName: "Author")
            try author.setValue("Ursula", forKey: "name")
            for title in ["Earthsea", "Tehanu"] {
                let book = try setUp.insertNewObject(forEntityName: "Book")
                try book.setValue(title, forKey: "title")
                try book.setValue(author, forKey: "author")
            }
            try setUp.save()
        }
        return (container, url, container.newBackgroundContext())
    }

    static func stored(_ container: PersistentContainer) throws -> (authors: Int, books: Int) {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            (try reader.count(for: FetchRequest(entityName: "Author")), try reader.count(for: FetchRequest(entityName: "Book")))
        }
    }

    @Test("Discarding the deletion before its rules ran keeps the object and what it would have cascaded to")
    func discardBeforeRules() throws {
        let (container, url, context) = try Self.library()
        defer { LibraryModel.remove(url) }
        try context.performAndWait {
            let author = try #require(try context.fetch(FetchRequest(entityName: "Author")).first)
            context.delete(author)
            context.refresh(author, mergeChanges: false)
            #expect(!author.isDeleted)
            #expect(context.deletedObjects.isEmpty)
            #expect(!context.hasChanges)
        }
        try context.performAndWait {
            #expect(context.deletedObjects.isEmpty)
            try context.save()
        }
        let stored = try Self.stored(container)
        #expect(stored.authors == 1 && stored.books == 2)
    }

    @Test("Merging changes keeps the deletion, and the save cascades it", arguments: [false, true])
    func mergeKeepsDeletion(refreshingAll: Bool) throws {
        let (container, url, context) = try Self.library()
        defer { LibraryModel.remove(url) }
        try context.performAndWait {
            let author = try #require(try context.fetch(FetchRequest(entityName: "Author")).first)
            context.delete(author)
            if refreshingAll { context.refreshAllObjects() } else { context.refresh(author, mergeChanges: true) }
            #expect(author.isDeleted)
            #expect(context.deletedObjects == [author])
            try context.save()
        }
        let stored = try Self.stored(container)
        #expect(stored.authors == 0 && stored.books == 0)
    }

    @Test("refreshAllObjects keeps a deletion, before its rules ran or after", arguments: [false, true])
    func refreshAllKeepsDeletion(afterRules: Bool) throws {
        let (container, url, context) = try Self.library()
        defer { LibraryModel.remove(url) }
        try context.performAndWait {
            let book = try #require(try context.fetch(FetchRequest(entityName: "Book", format: "title == 'Tehanu'")).first)
            context.delete(book)
            if !afterRules { context.refreshAllObjects() }
        }
        try context.performAndWait {
            if afterRules { context.refreshAllObjects() }
            #expect(context.deletedObjects.map { $0.value(forKey: "title") as? String } == ["Tehanu"])
            try context.save()
        }
        let stored = try Self.stored(container)
        #expect(stored.authors == 1 && stored.books == 1)
    }
}
