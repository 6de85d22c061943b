import Foundation
import Testing
@testable import Faultline

/// The seed scenarios' predicates, through fetch requests on a real store.
@Suite("The seeds' predicates fetch what they should")
struct SeedPredicateTests {
    private func titles(_ entity: String, _ format: String, _ arguments: Any?...) throws -> Set<String> {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        var values: [PredicateValue] = []
        for argument in arguments { values.append(try PredicateValue(converting: argument)) }
        let request = FetchRequest(entityName: entity, predicate: try FetchPredicate(format: format, arguments: values))
        let context = container.newBackgroundContext()
        return try context.performAndWait { Set(try context.fetch(request).map(FetchLibraryStore.label)) }
    }

    @Test("searchName CONTAINS %@ with \"cafe\" finds Café, CAFE and café")
    func searchName() throws {
        #expect(try titles("Book", "searchName CONTAINS %@", "cafe") == ["Café", "CAFE", "café"])
    }

    @Test("colorScheme.primary == %@ compares the flattened composite column")
    func composite() throws {
        #expect(try titles("Author", "colorScheme.primary == %@", "red") == ["Ana", "Zoë"])
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let compiled = try PredicateSQLCompiler.compile(
            try FetchPredicate(format: "colorScheme.primary == %@", "red"), entityName: "Author", schema: container.coordinator.schema)
        #expect(compiled.whereClause == "t0.ZCOLORSCHEME_PRIMARY = ?")
    }

    @Test("flightData != nil is IS NOT NULL")
    func notNil() throws {
        #expect(try titles("Author", "flightData != nil") == ["Bob"])
    }

    @Test("A to-one compared with a managed object goes through its key column")
    func objectArgument() throws {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let bob = try #require(try context.fetch(FetchRequest(entityName: "Author", format: "name == %@", "Bob")).first)
            let books = try context.fetch(FetchRequest(entityName: "Book", format: "author == %@", bob))
            #expect(Set(books.map(FetchLibraryStore.label)) == ["Tea", "Naïve Art", "Résumé"])
            let compiled = try PredicateSQLCompiler.compile(
                try FetchPredicate(format: "author == %@", bob), entityName: "Book", schema: container.coordinator.schema)
            #expect(compiled.whereClause == "t0.ZAUTHOR = ?")
        }
    }
}
