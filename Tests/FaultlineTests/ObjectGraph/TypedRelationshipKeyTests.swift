import Foundation
import Testing
@testable import Faultline

/// Typed relationship keys: to-one and to-many access through `ToOneKey` and
/// `ToManyKey`, with `ManagedObject` itself as the destination (the members
/// come back as they are) and with a registered subclass (each member cast).
@Suite("Typed relationship keys")
struct TypedRelationshipKeyTests {
    final class Author: ManagedObject {
        static let books = ToManyKey<Book>("books")
        static let anyBooks = ToManyKey<ManagedObject>("books")
        static let name = AttributeKey<String?>("name")
    }

    final class Book: ManagedObject {
        static let author = ToOneKey<Author>("author")
        static let title = AttributeKey<String?>("title")
    }

    @Test("To-many and to-one keys return the same members typed or untyped, and add and remove keep inverses")
    func typedAccess() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        try container.register(Author.self, forEntityName: "Author")
        try container.register(Book.self, forEntityName: "Book")
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try #require(try context.insertNewObject(forEntityName: "Author") as? Author)
            author[Author.name] = "Ursula"
            var books: [Book] = []
            for title in ["A", "B", "C"] {
                let book = try #require(try context.insertNewObject(forEntityName: "Book") as? Book)
                book[Book.title] = title
                try author.add(book, to: Author.books)
                books.append(book)
            }
            #expect(Set(author[Author.books].map(ObjectIdentifier.init)) == Set(books.map(ObjectIdentifier.init)))
            #expect(author[Author.anyBooks].count == 3)
            #expect(books.allSatisfy { $0[Book.author] === author })

            try author.remove(books[0], from: Author.books)
            #expect(books[0][Book.author] == nil)
            try context.save()
            context.reset()

            let fetched = try #require(try context.fetch(FetchRequest(entityName: "Author")).first as? Author)
            let typed = fetched[Author.books]
            let untyped = fetched[Author.anyBooks]
            #expect(typed.compactMap { $0[Book.title] }.sorted() == ["B", "C"])
            #expect(untyped.map(ObjectIdentifier.init) == typed.map(ObjectIdentifier.init))
            #expect(typed.allSatisfy { $0[Book.author] === fetched })
        }
    }
}
