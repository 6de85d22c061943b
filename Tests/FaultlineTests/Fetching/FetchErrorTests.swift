import Foundation
import Testing
@testable import Faultline

/// Malformed predicates, unknown keys and wrong types are typed errors; values
/// never become SQL text.
@Suite("Fetch errors are typed, and values never reach SQL as text")
struct FetchErrorTests {
    private func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let context = container.newBackgroundContext()
        return try context.performAndWait { try context.fetch(request) }
    }

    @Test("A malformed format string throws FetchPredicateError with its offset")
    func malformed() {
        #expect(throws: FetchPredicateError.self) { try FetchRequest(entityName: "Book", format: "title == ") }
        do {
            _ = try FetchRequest(entityName: "Book", format: "views > 1 AND AND")
        } catch let error as FetchPredicateError {
            #expect(error.offset == 14)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("Unknown keys name the entity and the key, also past a to-one")
    func unknownKeys() throws {
        #expect(throws: FetchPredicateError.unknownKey(entity: "Book", key: "colour")) {
            try fetch(try FetchRequest(entityName: "Book", format: "colour == 1"))
        }
        #expect(throws: FetchPredicateError.unknownKey(entity: "Author", key: "email")) {
            try fetch(try FetchRequest(entityName: "Book", format: "author.email == 'x'"))
        }
        #expect(throws: FetchError.unknownEntity("Nope")) { try fetch(FetchRequest(entityName: "Nope")) }
        var request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [FetchSortDescriptor(key: "author.email")]
        #expect(throws: FetchError.unknownSortKey(entity: "Book", key: "author.email")) { try fetch(request) }
    }

    @Test("Wrong types and collection misuse are FetchPredicateErrors")
    func wrongTypes() throws {
        #expect(throws: FetchPredicateError.typeMismatch(operator: ">", left: "integer", right: "string")) {
            try fetch(try FetchRequest(entityName: "Book", format: "views > 'x'"))
        }
        #expect(throws: FetchPredicateError.typeMismatch(operator: "BEGINSWITH", left: "integer", right: "string")) {
            try fetch(try FetchRequest(entityName: "Book", format: "views BEGINSWITH 'a'"))
        }
        #expect(throws: FetchPredicateError.collectionNeedsModifier(operator: "==")) {
            try fetch(try FetchRequest(entityName: "Author", format: "books.title == 'Tea'"))
        }
        #expect(throws: FetchPredicateError.aggregateNeedsCollection(aggregate: "@sum", found: "to-one object")) {
            try fetch(try FetchRequest(entityName: "Book", format: "author.@sum.age > 1"))
        }
        #expect(throws: FetchPredicateError.aggregateNeedsAttribute(aggregate: "@sum")) {
            try fetch(try FetchRequest(entityName: "Author", format: "books.@sum > 1"))
        }
        #expect(throws: FetchPredicateError.aggregateValueKind(aggregate: "@avg", expected: "numbers", found: "string")) {
            try fetch(try FetchRequest(entityName: "Author", format: "books.@avg.title > 1"))
        }
        #expect(throws: FetchPredicateError.unsubstitutedVariable(name: "X")) {
            try fetch(try FetchRequest(entityName: "Book", format: "title == $X"))
        }
    }

    @Test("Injection through literals, arguments and %K leaves the database unchanged and SQL text free of values")
    func injection() throws {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let context = container.newBackgroundContext()
        let hostile = "x'); DROP TABLE ZBOOK; --"
        try context.performAndWait { () throws in
            #expect(try context.fetch(try FetchRequest(entityName: "Book", format: "title == %@", hostile)).isEmpty)
            #expect(try context.fetch(try FetchRequest(entityName: "Book", format: "title == \"\(hostile)\"")).isEmpty)
            #expect(try context.fetch(try FetchRequest(entityName: "Book", format: "title IN %@", [hostile, "Tea"])).count == 1)
            #expect(try context.fetch(try FetchRequest(entityName: "Book", format: "title LIKE %@", hostile + "*")).isEmpty)
            #expect(throws: FetchPredicateError.self) { try FetchRequest(entityName: "Book", format: "%K == 1", "title; DROP TABLE ZBOOK") }
            #expect(try context.count(for: FetchRequest(entityName: "Book")) == 6)
        }
        let compiled = try PredicateSQLCompiler.compile(
            try FetchPredicate(format: "title == %@ OR subtitle CONTAINS %@", hostile, hostile),
            entityName: "Book", schema: container.coordinator.schema)
        #expect(!compiled.whereClause.contains("DROP"))
        #expect(compiled.bindings == [.text(hostile), .text(hostile)])
    }
}
