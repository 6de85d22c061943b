import Foundation
import Testing
@testable import Faultline

/// A relationship's destinations as IDs, as Core Data's
/// `objectIDs(forRelationshipNamed:)` gives them: a to-one's key costs no
/// object in the context, and an unsaved change is what it reports.
@Suite("Relationship IDs without objects")
struct RelationshipIDTests {
    /// Two authors with two books each, saved; returns the author IDs and, per author, its book IDs in insertion order.
    static func library(_ container: PersistentContainer) throws -> (authors: [ManagedObjectID], books: [[ManagedObjectID]]) {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            var authors: [ManagedObject] = []
            var books: [[ManagedObject]] = []
            for name in ["Ada", "Grace"] {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue(name, forKey: "name")
                var written: [ManagedObject] = []
                for number in 1...2 {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue("\(name) \(number)", forKey: "title")
                    try book.setDestination(author, forKey: "author")
                    written.append(book)
                }
                authors.append(author)
                books.append(written)
            }
            try context.save()
            return (authors.map(\.objectID), books.map { $0.map(\.objectID) })
        }
    }

    @Test("A fetched book's author ID comes from its row: no author object is registered; reading the author registers one")
    func toOneWithoutObject() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let (authors, books) = try Self.library(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Book")
            request.returnsObjectsAsFaults = false
            let fetched = try context.fetch(request)
            #expect(fetched.count == 4)
            var byBook: [ManagedObjectID: ManagedObjectID?] = [:]
            for book in fetched { byBook[book.objectID] = try book.objectID(forRelationshipNamed: "author") }
            for (author, written) in zip(authors, books) {
                for book in written { #expect(byBook[book] == .some(author)) }
            }
            #expect(context.registeredObjects.count == 4, "only the books are registered")
            #expect(try fetched[0].objectIDs(forRelationshipNamed: "author").count == 1)
            _ = fetched[0].value(forKey: "author")
            #expect(context.registeredObjects.count == 5, "reading the destination registers it")
        }
    }

    @Test("An unsaved change is what the ID reports: a new destination, an inserted one, none")
    func unsavedChanges() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let (authors, books) = try Self.library(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let book = try context.existingObject(with: books[0][0])
            try book.setDestination(try context.existingObject(with: authors[1]), forKey: "author")
            #expect(try book.objectID(forRelationshipNamed: "author") == authors[1])
            let newcomer = try context.insertNewObject(forEntityName: "Author")
            try book.setDestination(newcomer, forKey: "author")
            #expect(try book.objectID(forRelationshipNamed: "author") == newcomer.objectID)
            #expect(try book.objectID(forRelationshipNamed: "author")?.isTemporaryID == true)
            try book.setDestination(nil, forKey: "author")
            #expect(try book.objectID(forRelationshipNamed: "author") == nil)
            #expect(try book.objectIDs(forRelationshipNamed: "author") == [])
        }
    }

    @Test("A to-many's member IDs, with members added and removed before saving")
    func toManyIDs() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let (authors, books) = try Self.library(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let ada = try context.existingObject(with: authors[0])
            #expect(Set(try ada.objectIDs(forRelationshipNamed: "books")) == Set(books[0]))
            let moved = try context.existingObject(with: books[1][0])
            try moved.setDestination(ada, forKey: "author")
            #expect(Set(try ada.objectIDs(forRelationshipNamed: "books")) == Set(books[0] + [books[1][0]]))
            let grace = try context.existingObject(with: authors[1])
            #expect(try grace.objectIDs(forRelationshipNamed: "books") == [books[1][1]])
        }
    }

    @Test("Typed to-one keys give the ID too; wrong keys are typed errors")
    func typedAndErrors() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let (authors, books) = try Self.library(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let book = try context.existingObject(with: books[0][1])
            #expect(try book.objectID(for: ToOneKey<ManagedObject>("author")) == authors[0])
            #expect(throws: ObjectAccessError.unknownKey(entity: "Book", key: "writer")) {
                try book.objectID(forRelationshipNamed: "writer")
            }
            #expect(throws: ObjectAccessError.wrongType(entity: "Book", key: "title", expected: "a relationship")) {
                try book.objectIDs(forRelationshipNamed: "title")
            }
            #expect(throws: ObjectAccessError.wrongType(entity: "Book", key: "chapters", expected: "a to-one relationship")) {
                try book.objectID(forRelationshipNamed: "chapters")
            }
            #expect(throws: ObjectAccessError.self) { try book.objectID(for: ToOneKey<ManagedObject>("chapters")) }
        }
    }
}
