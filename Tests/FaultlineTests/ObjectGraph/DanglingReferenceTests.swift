import Foundation
import Testing
@testable import Faultline

/// A change that points at an object deleted in the same context after its
/// delete rules ran (a link made in a later block, or pushed by a child) is a
/// validation error, as Core Data's "dangling reference to an invalid
/// object": nothing is written, the context keeps its changes, and the merge
/// policy never sees a conflict it could only resolve by dropping the deletion.
@Suite("Dangling references to deleted objects are validation errors")
struct DanglingReferenceTests {
    /// A saved author and publisher, the author published by nobody.
    static func library() throws -> (PersistentContainer, URL, ManagedObjectContext) {
        let (container, url) = try LibraryModel.container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Author").setValue("Ursula", forKey: "name")
            try context.insertNewObject(forEntityName: "Publisher").setValue("Ace", forKey: "name")
            try context.save()
        }
        return (container, url, context)
    }

    /// The dangling-reference issue on `key` that `error` lists.
    static func issue(_ error: any Error, on key: String) -> ValidationIssue? {
        guard case SaveError.validation(let issues) = error else { return nil }
        return issues.first { $0.key == key && $0.message.contains("dangling reference") }
    }

    static func stored(_ container: PersistentContainer) throws -> (authors: Int, publishers: Int, books: Int) {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            (try reader.count(for: FetchRequest(entityName: "Author")), try reader.count(for: FetchRequest(entityName: "Publisher")),
             try reader.count(for: FetchRequest(entityName: "Book")))
        }
    }

    @Test("An existing object linked to a deleted one, under every merge policy: refused, nothing written",
          arguments: [MergePolicy.error, .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite, .rollback])
    func toOneOfExisting(policy: MergePolicy) throws {
        let (container, url, context) = try Self.library()
        defer { LibraryModel.remove(url) }
        context.mergePolicy = policy
        try context.performAndWait {
            context.delete(try #require(try context.fetch(FetchRequest(entityName: "Publisher")).first))
        }
        try context.performAndWait {
            let publisher = try #require(context.deletedObjects.first)
            let author = try #require(try context.fetch(FetchRequest(entityName: "Author")).first)
            try author.setValue(publisher, forKey: "publisher")
            #expect {
                try context.save()
            } throws: { error in
                let issue = Self.issue(error, on: "publisher")
                return issue?.objectID == author.objectID && issue?.code == .custom
            }
            #expect(context.hasChanges)
        }
        let stored = try Self.stored(container)
        #expect(stored.authors == 1 && stored.publishers == 1)
    }

    @Test("A new object's to-one, and a to-many member added, pointing at a deleted object: refused; rollback saves cleanly")
    func newObjectAndMember() throws {
        let (container, url, context) = try Self.library()
        defer { LibraryModel.remove(url) }
        try context.performAndWait {
            context.delete(try #require(try context.fetch(FetchRequest(entityName: "Author")).first))
        }
        try context.performAndWait {
            let author = try #require(context.deletedObjects.first)
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Orphan", forKey: "title")
            try book.setValue(author, forKey: "author")
            #expect { try context.save() } throws: { Self.issue($0, on: "author") != nil }
            try book.setValue(nil, forKey: "author")
            let shelf = try context.insertNewObject(forEntityName: "Shelf")
            let other = try context.insertNewObject(forEntityName: "Book")
            try other.setValue("Kept", forKey: "title")
            try context.save()
            context.delete(other)
            context.processPendingChanges()
            try shelf.addObject(other, toRelationship: "books")
            #expect { try context.save() } throws: { Self.issue($0, on: "books") != nil }
            context.rollback()
        }
        let stored = try Self.stored(container)
        #expect(stored.authors == 0 && stored.books == 2)
    }

    @Test("A deletion whose rules cleared every reference saves as before")
    func cleanDeletion() throws {
        let (container, url, context) = try Self.library()
        defer { LibraryModel.remove(url) }
        try context.performAndWait {
            let publisher = try #require(try context.fetch(FetchRequest(entityName: "Publisher")).first)
            let author = try #require(try context.fetch(FetchRequest(entityName: "Author")).first)
            try author.setValue(publisher, forKey: "publisher")
            try context.save()
            try context.insertNewObject(forEntityName: "Book").setValue(author, forKey: "author")
            context.delete(author)
            try context.save()
        }
        let stored = try Self.stored(container)
        #expect(stored.authors == 0 && stored.publishers == 1 && stored.books == 0)
    }
}
