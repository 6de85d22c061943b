import Foundation
import Testing
@testable import Faultline

/// Objects of one context never join another's graph: a relationship to an
/// object of another context (or of a context that is gone) is refused with
/// `ObjectAccessError.otherContext`, and `delete` or `refresh` of a foreign
/// object leaves it alone. The checks compare the contexts' handles.
@Suite("Objects of another context")
struct CrossContextTests {
    final class Author: ManagedObject {
        static let books = ToManyKey<Book>("books")
    }

    final class Book: ManagedObject {
        static let author = ToOneKey<Author>("author")
    }

    @Test("A relationship to another context's object is refused and changes nothing; delete and refresh ignore it")
    func refused() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        try container.register(Author.self, forEntityName: "Author")
        try container.register(Book.self, forEntityName: "Book")
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        try first.performAndWait {
            try second.performAndWait {
                let author = try #require(try first.insertNewObject(forEntityName: "Author") as? Author)
                try author.setValue("Ursula", forKey: "name")
                let book = try #require(try second.insertNewObject(forEntityName: "Book") as? Book)
                try book.setValue("The Dispossessed", forKey: "title")

                #expect(throws: ObjectAccessError.otherContext(author.description)) {
                    try book.setDestination(author, forKey: "author")
                }
                #expect(throws: ObjectAccessError.otherContext(book.description)) {
                    try author.addObject(book, toRelationship: "books")
                }
                #expect(throws: ObjectAccessError.otherContext(book.description)) { try author.add(book, to: Author.books) }
                book[Book.author] = author
                #expect(author[Author.books].isEmpty)
                #expect(book[Book.author] == nil)
                #expect(author.changedValues()["books"] == nil)
                #expect(book.changedValues()["author"] == nil)

                #expect(second.insertedObjects.contains(book))
                // The refused subscript assignment is reported by the next save, once.
                #expect {
                    try second.save()
                } throws: { error in
                    guard case SaveError.refusedAccess(let refused) = error else { return false }
                    return refused == [.otherContext(author.description)]
                }
                try second.save()
                // Saved, so a refresh by its own context would turn it into a fault.
                first.delete(book)
                first.refresh(book, mergeChanges: false)
                #expect(!book.isDeleted)
                #expect(!book.isFault)
                #expect(book.value(forKey: "title") as? String == "The Dispossessed")
                #expect(first.deletedObjects.isEmpty)
                try first.save()
            }
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let books = try reader.fetch(FetchRequest(entityName: "Book"))
            #expect(books.count == 1)
            #expect(books.first?.value(forKey: "author") == nil)
            #expect(try reader.count(for: FetchRequest(entityName: "Author")) == 1)
        }
    }

    @Test("An object whose context is gone refuses relationship changes, naming itself, and is refused as a destination")
    func contextGone() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        var context: ManagedObjectContext? = container.newBackgroundContext()
        let (author, book) = try #require(context).performAndWait {
            (try #require(context).insertNewObject(forEntityName: "Author"),
             try #require(context).insertNewObject(forEntityName: "Book"))
        }
        context = nil
        #expect(author.managedObjectContext == nil)
        // A live context refuses a destination whose context is gone.
        let live = container.newBackgroundContext()
        try live.performAndWait {
            let book = try live.insertNewObject(forEntityName: "Book")
            #expect(throws: ObjectAccessError.otherContext(author.description)) {
                try book.setDestination(author, forKey: "author")
            }
            #expect(book.value(forKey: "author") == nil)
        }
        #expect(throws: ObjectAccessError.otherContext(book.description)) {
            try book.setDestination(author, forKey: "author")
        }
        #expect(throws: ObjectAccessError.otherContext(author.description)) {
            try author.addObject(book, toRelationship: "books")
        }
    }

    @Test("object(with:) of another context's temporary ID throws objectNotFound; its own and a parent's resolve")
    func temporaryIDOfAnotherContext() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        let (draft, draftID) = try first.performAndWait {
            let author = try first.insertNewObject(forEntityName: "Author")
            try author.setValue("Octavia", forKey: "name")
            #expect(try first.object(with: author.objectID) === author)
            return (author, author.objectID)
        }
        #expect(draftID.isTemporaryID)
        try second.performAndWait {
            #expect(throws: StoreError.objectNotFound(draftID.description)) { try second.object(with: draftID) }
            #expect(second.registeredObjects.isEmpty)
            try second.save()
        }
        let child = first.newChildContext()
        let name = try child.performAndWait { try child.object(with: draftID).value(forKey: "name") as? String }
        #expect(name == "Octavia")
        try first.performAndWait {
            try first.save()
            #expect(!draft.objectID.isTemporaryID)
            // The temporary ID the save replaced names nothing any more.
            #expect(throws: StoreError.objectNotFound(draftID.description)) { try first.object(with: draftID) }
        }
        let reader = container.newBackgroundContext()
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest(entityName: "Author")) } == 1)
    }
}

/// `object(with:)` never hands back an unrelated row or traps for an ID of
/// another store: it throws `StoreError.foreignObjectID`, as `existingObject(with:)` does.
@Suite("Object IDs of another store")
struct ForeignObjectIDTests {
    @Test("An ID from another container with a same-shaped model, or of an entity this model lacks, is refused")
    func foreignIDsRefused() throws {
        let (mine, myURL) = try LibraryModel.container()
        defer { LibraryModel.remove(myURL) }
        let (theirs, theirURL) = try LibraryModel.container()
        defer { LibraryModel.remove(theirURL) }
        let wide = ManagedObjectModel {
            Entity("A") { Attribute("x", .string) }
            Entity("B") { Attribute("x", .string) }
            Entity("C") { Attribute("x", .string) }
            Entity("D") { Attribute("x", .string) }
            Entity("E") { Attribute("x", .string) }
            Entity("F") { Attribute("x", .string) }
            Entity("G") { Attribute("x", .string) }
        }
        let (other, otherURL) = try LibraryModel.container(wide)
        defer { LibraryModel.remove(otherURL) }

        func savedID(_ container: PersistentContainer, _ entity: String, _ key: String, _ value: String) throws -> ManagedObjectID {
            let context = container.newBackgroundContext()
            return try context.performAndWait {
                let object = try context.insertNewObject(forEntityName: entity)
                try object.setValue(value, forKey: key)
                try context.save()
                return object.objectID
            }
        }
        _ = try savedID(mine, "Author", "name", "Mine")
        let theirAuthor = try savedID(theirs, "Author", "name", "Theirs")
        let lastEntity = try savedID(other, "G", "x", "seventh")

        let context = mine.newBackgroundContext()
        context.performAndWait {
            for id in [theirAuthor, lastEntity] {
                #expect(throws: StoreError.foreignObjectID(id.description)) { try context.object(with: id) }
                #expect(throws: StoreError.foreignObjectID(id.description)) { try context.existingObject(with: id) }
            }
            #expect(context.registeredObjects.isEmpty)
        }
    }
}
