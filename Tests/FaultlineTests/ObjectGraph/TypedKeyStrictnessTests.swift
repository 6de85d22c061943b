import Foundation
import Testing
@testable import Faultline

/// The typed API is as strict as the dynamic one: a key naming no property,
/// a key whose value type does not fit the attribute and a destination of
/// another context are refused — at registration for the keys a class lists,
/// by the throwing setters at once, and by the next save for a subscript
/// setter (which cannot throw) — and nothing is written in their place.
@Suite("Typed keys are as strict as setValue")
struct TypedKeyStrictnessTests {
    final class Author: ManagedObject {
        static let name = AttributeKey<String?>("name")
        static let misspelt = AttributeKey<String?>("nmae")
        static let born = AttributeKey<Date?>("born")
        static let bornAsNumber = AttributeKey<Int64?>("born")
        static let booksAsOne = ToOneKey<Book>("books")
    }

    final class Book: ManagedObject {
        static let title = AttributeKey<String?>("title")
        static let titleAsNumber = AttributeKey<Int64?>("title")
        static let author = ToOneKey<Author>("author")
        static let authorAsMany = ToManyKey<Author>("author")
    }

    final class ListedBook: ManagedObject {
        override class var typedKeys: [any TypedPropertyKey] { [Book.title, Book.author] }
    }
    final class MisspeltBook: ManagedObject {
        override class var typedKeys: [any TypedPropertyKey] { [Book.title, AttributeKey<String?>("titel")] }
    }
    final class MistypedBook: ManagedObject {
        override class var typedKeys: [any TypedPropertyKey] { [Book.titleAsNumber] }
    }
    final class WrongKindBook: ManagedObject {
        override class var typedKeys: [any TypedPropertyKey] { [Book.authorAsMany] }
    }

    @Test("Registration checks the keys a class lists: a misspelt name, a wrong value type, a wrong kind")
    func registrationChecksListedKeys() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        try container.register(ListedBook.self, forEntityName: "Book")
        #expect(throws: ObjectAccessError.unknownKey(entity: "Book", key: "titel")) {
            try container.register(MisspeltBook.self, forEntityName: "Book")
        }
        #expect(throws: ObjectAccessError.wrongType(entity: "Book", key: "title", expected: "a key of stringAttributeType")) {
            try container.register(MistypedBook.self, forEntityName: "Book")
        }
        #expect(throws: ObjectAccessError.wrongType(entity: "Book", key: "author", expected: "a ToOneKey")) {
            try container.register(WrongKindBook.self, forEntityName: "Book")
        }
    }

    @Test("The throwing setters refuse a misspelt key, a mistyped key and another context's destination")
    func throwingSetters() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        try container.register(Author.self, forEntityName: "Author")
        try container.register(Book.self, forEntityName: "Book")
        let context = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        try context.performAndWait {
            try other.performAndWait {
                let book = try context.insertObject(Book.self)
                let stranger = try other.insertObject(Author.self)
                #expect(throws: ObjectAccessError.unknownKey(entity: "Author", key: "nmae")) {
                    try stranger.set("Ursula", for: Author.misspelt)
                }
                #expect(throws: (any Error).self) { try book.set(Int64(47_204), for: Book.titleAsNumber) }
                #expect(throws: ObjectAccessError.otherContext(stranger.description)) { try book.set(stranger, for: Book.author) }
                // A to-one key naming a to-many resolves to nothing, as the registration check says.
                #expect(throws: ObjectAccessError.wrongType(entity: "Author", key: "books", expected: "a ToManyKey")) {
                    try stranger.set(nil, for: Author.booksAsOne)
                }
                #expect(stranger[Author.booksAsOne] == nil)
                #expect(book.value(forKey: "title") == nil)
                #expect(book[Book.author] == nil)
            }
        }
    }

    @Test("Refused subscript assignments fail the next save with every refusal, and write nothing")
    func subscriptRefusalsFailTheSave() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        try container.register(Author.self, forEntityName: "Author")
        try container.register(Book.self, forEntityName: "Book")
        let context = container.newBackgroundContext()
        let reader = container.newBackgroundContext()
        func stored() throws -> Int { try reader.performAndWait { try reader.count(for: FetchRequest(entityName: "Book")) } }
        try context.performAndWait {
            let author = try context.insertObject(Author.self)
            author[Author.name] = "Ursula"
            author[Author.misspelt] = "typo"
            author[Author.bornAsNumber] = 1929
            let book = try context.insertObject(Book.self)
            book[Book.title] = "The Dispossessed"
            book[Book.titleAsNumber] = 47_204
            #expect(book[Book.title] == "The Dispossessed")
            #expect(author[Author.born] == nil)
            #expect {
                try context.save()
            } throws: { error in
                guard case SaveError.refusedAccess(let refused) = error else { return false }
                return refused.count == 3 && refused.first == .unknownKey(entity: "Author", key: "nmae")
            }
            #expect(try stored() == 0)
            try context.save()
            #expect(try stored() == 1)
        }
    }
}
