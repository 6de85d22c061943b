import Faultline
import Foundation
import Testing

/// Predicate strings whose SQL matters beyond the front end's table: negation
/// over nil, joins under NOT, long IN lists (JSON-bound), aggregates through
/// key paths, canonical rewriting.
enum SQLPredicateTable {
    private static func books(_ format: String, _ arguments: [PredicateValue] = [], _ titles: String...) -> PredicateCase {
        PredicateCase(format: format, arguments: arguments, entity: .books, expected: .matches(Set(titles)))
    }

    private static func authors(_ format: String, _ arguments: [PredicateValue] = [], _ names: String...) -> PredicateCase {
        PredicateCase(format: format, arguments: arguments, entity: .authors, expected: .matches(Set(names)))
    }

    static let manyViews: PredicateValue = .array((0..<20).map { .int($0 * 5) })
    static let manyTitles: PredicateValue = .array((0..<20).map { .string("Title \($0)") } + ["Tea", "Résumé"])

    static let cases: [PredicateCase] = [
        books("NOT subtitle BEGINSWITH \"S\"", [], "Café", "café", "Tea", "Naïve Art", "Résumé"),
        books("NOT price > 10", [], "Café", "café", "Tea", "Résumé"),
        books("NOT (price > 10 OR views > 40)", [], "Café", "Tea", "Résumé"),
        books("NOT author.publisher.name == \"Orbit\"", [], "Tea", "Naïve Art", "Résumé"),
        books("author.publisher.country == \"US\" AND views > 1", [], "Tea", "Naïve Art"),
        books("views IN %@", [manyViews], "Café", "CAFE", "café", "Tea", "Résumé"),
        books("title IN %@", [manyTitles], "Tea", "Résumé"),
        books("title IN[cd] %@", [["RESUME", "tea", "x", "y", "z", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]], "Tea", "Résumé"),
        books("subtitle IN {nil, \"Green\"}", [], "Café", "café", "Naïve Art", "Tea"),
        books("title BEGINSWITH[cd] \"CA\"", [], "Café", "CAFE", "café"),
        books("title ENDSWITH[cd] \"E\"", [], "Café", "CAFE", "café", "Résumé"),
        books("NOT title CONTAINS[c] \"a\"", [], "Résumé"),
        books("title BEGINSWITH \"\"", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("subtitle ENDSWITH \"\"", [], "CAFE", "Tea", "Résumé"),
        books("title MATCHES[cd] \"cafe\"", [], "Café", "CAFE", "café"),
        books("3 < views", [], "Café", "CAFE", "café", "Tea", "Naïve Art"),
        books("\"Café\" LIKE[cd] title", [], "Café", "CAFE", "café"),
        books("\"Café\" LIKE title", [], "Café"),
        books("title LIKE[c] title AND NOT title LIKE subtitle", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("title != nil AND subtitle != \"Green\"", [], "Café", "CAFE", "café", "Naïve Art", "Résumé"),
        // Two key paths: nil equals nil, as in memory (IS, not =).
        books("subtitle == subtitle", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("subtitle IN {subtitle, \"x\"} AND NOT subtitle LIKE[c] 'A%'", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        authors("publisher == publisher", [], "Ana", "Bob", "Zoë"),
        // Kinds that never compare are unequal, except nil and nil (a fuzz finding).
        authors("nickname == rating * 0", [], "Zoë"),
        authors("nickname != rating * 0", [], "Ana", "Bob"),
        authors("publisher == rating * 0", [], "Zoë"),
        authors("NOT publisher != rating * 0 AND nickname != age", [], "Zoë"),
        authors("books.@sum.price > 30", [], "Ana", "Bob"),
        authors("ANY books.author.name == \"Ana\"", [], "Ana"),
        authors("NOT ANY books.views > 60", [], "Ana", "Zoë"),
        authors("ALL books.subtitle == nil", [], "Zoë"),
        authors("SUBQUERY(books, $b, $b.price > 9 AND $b.author.name == \"Ana\").@count == 2", [], "Ana"),
        authors("name BEGINSWITH[cd] \"zo\"", [], "Zoë"),
        authors("balance BETWEEN {0, 1}", [], "Bob"),
        authors("NOT publisher == nil AND publisher.name != \"Tor\"", [], "Ana"),
    ]
}

/// Matches, or the name of the error case.
enum Outcome: Equatable {
    case success(Set<String>)
    case failure(String)
}

@Suite("The SQL compiler returns what the in-memory evaluator returns, on the same library in a real store")
struct PredicateSQLTableTests {
    static let cases = PredicateTable.cases + SQLPredicateTable.cases + ArithmeticPredicateTable.cases

    @Test("The table holds at least 80 predicate strings that reach the compiler")
    func tableSize() {
        let compiled = Self.cases.filter { if case .parseError = $0.expected { false } else { true } }
        #expect(compiled.count >= 80)
    }

    @Test("SQL and the evaluator agree, row by row", arguments: cases)
    func row(_ row: PredicateCase) throws {
        let predicate: FetchPredicate
        do {
            predicate = try FetchPredicate(format: row.format, arguments: row.arguments).substituting(row.variables)
        } catch {
            #expect(.parseError(caseName(error)) == row.expected, "\(error)")
            return
        }
        var expected: Outcome
        do {
            var matches: Set<String> = []
            for subject in row.subjects where try predicate.evaluate(with: subject) { matches.insert(subject.label) }
            expected = .success(matches)
        } catch {
            expected = .failure(caseName(error))
        }

        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let context = container.newBackgroundContext()
        let entity = row.entity == .books ? "Book" : "Author"
        let actual: Outcome = context.performAndWait {
            do {
                let objects = try context.fetch(FetchRequest(entityName: entity, predicate: predicate))
                return .success(Set(objects.map(FetchLibraryStore.label)))
            } catch {
                return .failure(caseName(error))
            }
        }
        switch (expected, actual) {
        case (.success(let evaluated), .success(let fetched)):
            #expect(fetched == evaluated, "SQL returned \(fetched), the evaluator \(evaluated)")
            #expect(.matches(fetched) == row.expected)
        case (.failure(let evaluated), .failure(let fetched)):
            #expect(fetched == evaluated)
        default:
            Issue.record("SQL gave \(actual), the evaluator \(expected)")
        }

        // The evaluator over the stored managed objects agrees as well.
        if case .success(let fetched) = actual {
            let inMemory: Set<String> = try context.performAndWait {
                let request = FetchRequest(entityName: entity)
                return Set(try context.fetch(request).filter { try predicate.evaluate(with: $0) }.map(FetchLibraryStore.label))
            }
            #expect(inMemory == fetched)
        }
    }

    @Test("The library's primary keys are the ones the table's object ID arguments name")
    func primaryKeys() throws {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Author")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let keys = try context.fetch(request).map(\.objectID.primaryKey)
            #expect(keys == [1, 2, 3])
        }
    }
}
