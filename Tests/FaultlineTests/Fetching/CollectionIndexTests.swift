import Foundation
import Testing
@testable import Faultline

/// `[FIRST]`, `[LAST]`, `[n]` of a to-many: evaluated in memory on the
/// relationship's elements in order; in a fetch, refused with a clear error
/// (SQL would need the ordering column of an ordered relationship and a
/// correlated `LIMIT`/`OFFSET`, which Faultline does not compile yet).
@Suite("Index operators on a to-many: in memory by position, refused by name in a fetch")
struct CollectionIndexTests {
    @Test("books[FIRST], books[LAST] and books[n] read the relationship's elements in order; past the end is nil")
    func inMemory() throws {
        let books = (1...3).map { DictionarySubject("Book", id: Int64($0), ["title": .value(.string("B\($0)"))]) }
        let author = DictionarySubject("Author", id: 1, ["books": .many(books)])
        func book(_ key: Int64) -> PredicateValue { .objectID(PredicateObjectID(entityName: "Book", primaryKey: key)) }
        #expect(try FetchPredicate(format: "books[FIRST] == %@", arguments: [book(1)]).evaluate(with: author))
        #expect(try FetchPredicate(format: "books[LAST] == %@", arguments: [book(3)]).evaluate(with: author))
        #expect(try FetchPredicate(format: "books[1] == %@", arguments: [book(2)]).evaluate(with: author))
        #expect(try FetchPredicate(format: "books[3] == nil").evaluate(with: author))
        #expect(try !FetchPredicate(format: "books[FIRST] == %@", arguments: [book(2)]).evaluate(with: author))
    }

    @Test("In a fetch, an element of a to-many by position is FetchError.unsupportedPredicate naming the construct")
    func refusedInSQL() throws {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let context = container.newBackgroundContext()
        #expect {
            try context.performAndWait { try context.fetch(try FetchRequest(entityName: "Author", format: "books[FIRST] != nil")) }
        } throws: { error in
            guard case FetchError.unsupportedPredicate(let what) = error else { return false }
            return what.contains("an element of a to-many by position")
        }
    }
}
