import Faultline
import Foundation
import Testing

/// One row of the table: a format string, its arguments and variables, the
/// entity it runs over, and the expected outcome.
struct PredicateCase: Sendable, CustomTestStringConvertible {
    enum Entity: Sendable { case books, authors }
    enum Expected: Sendable, Equatable {
        /// The labels (title or name) of the subjects that match.
        case matches(Set<String>)
        /// Parsing fails with this `FetchPredicateError` case.
        case parseError(String)
        /// Evaluating fails with this `FetchPredicateError` case on some subject.
        case evaluationError(String)
    }

    var format: String
    var arguments: [PredicateValue] = []
    var variables: [String: PredicateValue] = [:]
    var entity: Entity
    var expected: Expected

    var testDescription: String { format }

    var subjects: [DictionarySubject] {
        entity == .books ? Library.books : Library.authors
    }
}

/// The name of a `FetchPredicateError` case, as the table names expected errors.
func caseName(_ error: Error) -> String {
    guard let error = error as? FetchPredicateError else { return "\(error)" }
    return Mirror(reflecting: error).children.first?.label ?? "\(error)"
}

private func books(_ format: String, _ arguments: [PredicateValue] = [], _ titles: String...) -> PredicateCase {
    PredicateCase(format: format, arguments: arguments, entity: .books, expected: .matches(Set(titles)))
}

private func authors(_ format: String, _ arguments: [PredicateValue] = [], _ names: String...) -> PredicateCase {
    PredicateCase(format: format, arguments: arguments, entity: .authors, expected: .matches(Set(names)))
}

private func parseError(_ format: String, _ kind: String, _ arguments: [PredicateValue] = []) -> PredicateCase {
    PredicateCase(format: format, arguments: arguments, entity: .books, expected: .parseError(kind))
}

private func evaluationError(_ entity: PredicateCase.Entity, _ format: String, _ kind: String) -> PredicateCase {
    PredicateCase(format: format, entity: entity, expected: .evaluationError(kind))
}

private let cafes = ["Café", "CAFE", "café"]
private let all = ["Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"]

enum PredicateTable {
    static let cases: [PredicateCase] = comparisons + strings + logic + arguments + toOne + toMany + errors

    static let comparisons: [PredicateCase] = [
        books("title == \"Café\"", [], "Café"),
        books("title = 'CAFE'", [], "CAFE"),
        books("title != \"Tea\"", [], "Café", "CAFE", "café", "Naïve Art", "Résumé"),
        books("title <> \"Tea\"", [], "Café", "CAFE", "café", "Naïve Art", "Résumé"),
        books("views > 10", [], "CAFE", "café", "Naïve Art"),
        books("views >= 10", [], "Café", "CAFE", "café", "Naïve Art"),
        books("views => 10", [], "Café", "CAFE", "café", "Naïve Art"),
        books("views < 10", [], "Tea", "Résumé"),
        books("views <= 5", [], "Tea", "Résumé"),
        books("views =< 5", [], "Tea", "Résumé"),
        books("views BETWEEN {10, 50}", [], "Café", "CAFE", "café"),
        books("views BETWEEN %@", [[5, 10]], "Café", "Tea"),
        books("views IN {0, 5, 100}", [], "Tea", "Naïve Art", "Résumé"),
        books("views == 0x14", [], "CAFE"),
        books("views > -1", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("views < 99999999999999999999", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("views > -9223372036854775809", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("views >= 9223372036854775808", []),
        books("price > 1e1", [], "CAFE", "Naïve Art"),
        books("price > 9.99", [], "CAFE", "Naïve Art"),
        books("price == 15", [], "CAFE"),
        books("price > 10", [], "CAFE", "Naïve Art"),
        books("subtitle == nil", [], "Café", "café", "Naïve Art"),
        books("subtitle == NULL", [], "Café", "café", "Naïve Art"),
        books("subtitle != nil", [], "CAFE", "Tea", "Résumé"),
        books("published BETWEEN %@", [[.date(Library.day("2019-01-01")), .date(Library.day("2020-12-31"))]], "Café", "Tea"),
        books("published > %@", [.date(Library.day("2021-01-01"))], "CAFE", "café", "Naïve Art"),
        books("isbn == %@", [.uuid(Library.isbnCafe)], "Café"),
        books("title < \"D\"", [], "Café", "CAFE"),
        books("title <[c] \"d\"", [], "Café", "CAFE", "café"),
        authors("age BETWEEN {25, 35}", [], "Bob", "Zoë"),
        authors("rating == nil", [], "Zoë"),
        authors("rating >= 4.5", [], "Ana"),
        authors("balance > 100", [], "Ana"),
        authors("balance == 0.5", [], "Bob"),
        authors("balance < %@", [.decimal(1)], "Bob"),
        authors("isActive == YES", [], "Ana", "Zoë"),
        authors("isActive == 1", [], "Ana", "Zoë"),
        authors("isActive == FALSE", [], "Bob"),
        authors("#size == 38", [], "Ana", "Zoë"),
        authors("age IN %@", [[40, 31]], "Ana", "Zoë"),
        authors("SELF == %@", [.objectID(PredicateObjectID(entityName: "Author", primaryKey: 3))], "Zoë"),
    ]

    static let strings: [PredicateCase] = [
        books("searchName CONTAINS %@", ["cafe"], "Café", "CAFE", "café"),
        books("title ==[cd] \"cafe\"", [], "Café", "CAFE", "café"),
        books("title ==[c] \"café\"", [], "Café", "café"),
        books("title ==[d] \"cafe\"", [], "café"),
        books("title IN %@", [["Tea", "CAFE"]], "Tea", "CAFE"),
        books("title IN[c] {\"tea\", \"cafe\"}", [], "Tea", "CAFE"),
        books("title IN[cd] {\"cafe\"}", [], "Café", "CAFE", "café"),
        books("\"af\" IN title", [], "Café", "café"),
        books("title BEGINSWITH \"Ca\"", [], "Café"),
        books("title BEGINSWITH[c] \"ca\"", [], "Café", "CAFE", "café"),
        books("title ENDSWITH \"é\"", [], "Café", "café", "Résumé"),
        books("title ENDSWITH[d] \"e\"", [], "Café", "café", "Résumé"),
        books("title CONTAINS \"a\"", [], "Café", "café", "Tea", "Naïve Art"),
        books("title CONTAINS[c] \"ART\"", [], "Naïve Art"),
        books("title CONTAINS[cd] \"IVE\"", [], "Naïve Art"),
        books("title LIKE \"C*\"", [], "Café", "CAFE"),
        books("title LIKE \"?af?\"", [], "Café", "café"),
        books("title LIKE[c] \"caf?\"", [], "Café", "CAFE", "café"),
        books("title LIKE \"*\"", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("title MATCHES \"[A-Z]+\"", [], "CAFE"),
        books("title MATCHES[c] \"caf.\"", [], "Café", "CAFE", "café"),
        books("title MATCHES \"Ca\"", []),
        books("title MATCHES \"T.*|N.*\"", [], "Tea", "Naïve Art"),
        books("subtitle BEGINSWITH \"S\"", [], "CAFE"),
        books("title == \"Caf\\u00e9\"", [], "Café"),
        books("title == \"Na\\u00EFve Art\"", [], "Naïve Art"),
        authors("name ==[cd] \"zoe\"", [], "Zoë"),
        authors("name MATCHES \"Z.*\"", [], "Zoë"),
        authors("name IN {\"Ana\", \"Zoë\"}", [], "Ana", "Zoë"),
    ]

    static let logic: [PredicateCase] = [
        books("TRUEPREDICATE", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("FALSEPREDICATE", []),
        books("NOT views > 10", [], "Café", "Tea", "Résumé"),
        books("!(views > 10)", [], "Café", "Tea", "Résumé"),
        books("views > 10 AND title BEGINSWITH[cd] \"c\"", [], "CAFE", "café"),
        books("views > 10 && views < 100", [], "CAFE", "café"),
        books("views < 5 OR views > 50", [], "Résumé", "Naïve Art"),
        books("views < 5 || title == \"Tea\"", [], "Résumé", "Tea"),
        books("views > 1 OR views < 100 AND FALSEPREDICATE", [], "Café", "CAFE", "café", "Tea", "Naïve Art"),
        books("(views > 1 OR views < 100) AND FALSEPREDICATE", []),
        books("NOT views > 1 OR title == \"Tea\"", [], "Résumé", "Tea"),
        books("title beginswith[cd] \"CAF\" and not views == 20", [], "Café", "café"),
        books("SELF.title == \"Tea\"", [], "Tea"),
        authors("nickname == nil OR nickname == \"Bobby\"", [], "Ana", "Bob", "Zoë"),
        PredicateCase(format: "title == $TITLE", variables: ["TITLE": "Tea"], entity: .books, expected: .matches(["Tea"])),
        PredicateCase(format: "views BETWEEN {$LOW, $HIGH}", variables: ["LOW": 10, "HIGH": 20], entity: .books,
                      expected: .matches(["Café", "CAFE"])),
    ]

    static let arguments: [PredicateCase] = [
        books("price < %f", [10], "Café", "café", "Tea"),
        books("views == %d", [20], "CAFE"),
        books("views == %ld", [100], "Naïve Art"),
        books("views > %i", [49], "café", "Naïve Art"),
        books("views < %lf", [5.5], "Tea", "Résumé"),
        books("%K == %@", ["title", "Tea"], "Tea"),
        books("%K.name == %@", ["author", "Bob"], "Tea", "Naïve Art", "Résumé"),
        books("title == \"%@\"", []),
    ]

    static let toOne: [PredicateCase] = [
        books("author.name == \"Ana\"", [], "Café", "CAFE", "café"),
        books("author == %@", [.objectID(PredicateObjectID(entityName: "Author", primaryKey: 2))], "Tea", "Naïve Art", "Résumé"),
        books("author != %@", [.objectID(PredicateObjectID(entityName: "Author", primaryKey: 2))], "Café", "CAFE", "café"),
        books("author.publisher.name == \"Orbit\"", [], "Café", "CAFE", "café"),
        authors("colorScheme.primary == %@", ["red"], "Ana", "Zoë"),
        authors("colorScheme.secondary == nil", [], "Zoë"),
        authors("flightData != nil", [], "Bob"),
        authors("flightData == nil", [], "Ana", "Zoë"),
        authors("publisher == nil", [], "Zoë"),
        authors("publisher.name == nil", [], "Zoë"),
        authors("publisher.country ==[c] \"uk\"", [], "Ana"),
    ]

    static let toMany: [PredicateCase] = [
        authors("books.@count > 2", [], "Ana", "Bob"),
        authors("books.@count == 0", [], "Zoë"),
        authors("books.@sum.views == 80", [], "Ana"),
        authors("books.@sum.views == 0", [], "Zoë"),
        authors("books.@avg.views > 30", [], "Bob"),
        authors("books.@avg.views == nil", [], "Zoë"),
        authors("books.@min.views == 0", [], "Bob"),
        authors("books.@max.views == 50", [], "Ana"),
        authors("books.@max.title == \"café\"", [], "Ana"),
        authors("books.@avg.price > 20", [], "Bob"),
        authors("ANY books.views > 60", [], "Bob"),
        authors("SOME books.views > 60", [], "Bob"),
        authors("ALL books.views > 1", [], "Ana", "Zoë"),
        authors("NONE books.views > 60", [], "Ana", "Zoë"),
        authors("ANY books.searchName CONTAINS %@", ["cafe"], "Ana"),
        authors("ANY books.title ==[cd] \"resume\"", [], "Bob"),
        authors("ALL books.title LIKE[cd] \"caf*\"", [], "Ana", "Zoë"),
        authors("ANY books.published < %@", [.date(Library.day("2019-01-01"))], "Bob"),
        authors("SUBQUERY(books, $b, $b.views > 10).@count > 0", [], "Ana", "Bob"),
        authors("SUBQUERY(books, $b, $b.views > 10 AND $b.title BEGINSWITH[c] \"c\").@count == 2", [], "Ana"),
        authors("SUBQUERY(books, $b, $b.views >= 0).@count == books.@count", [], "Ana", "Bob", "Zoë"),
        authors("books.title CONTAINS \"Tea\"", [], "Bob"),
        authors("\"Tea\" IN books.title", [], "Bob"),
    ]

    static let errors: [PredicateCase] = [
        parseError("title ==", "syntax"),
        parseError("title == \"abc", "unterminatedString"),
        parseError("(title == \"a\"", "unbalancedParenthesis"),
        parseError("title == \"a\")", "unbalancedParenthesis"),
        parseError("title FOO \"a\"", "unknownOperator"),
        parseError("title : \"a\"", "unknownOperator"),
        parseError("title & \"a\"", "syntax"),
        parseError("title ==[x] \"a\"", "unknownOption"),
        parseError("title == %@", "missingArgument"),
        parseError("%K == 1", "wrongArgumentType", [5]),
        parseError("%K == 1", "invalidKeyPathArgument", ["a b"]),
        parseError("views == %d", "wrongArgumentType", ["x"]),
        parseError("title MATCHES \"(\"", "invalidRegularExpression"),
        parseError("title MATCHES %@", "invalidRegularExpression", ["[z-a]"]),
        parseError("title == \"\\q\"", "invalidEscape"),
        parseError("views == 0x10000000000000000", "invalidNumber"),
        parseError("size == 3", "reservedWord"),
        parseError("views BETWEEN {1}", "invalidOperand"),
        parseError("views IN 3", "invalidOperand"),
        parseError("title == %z", "unknownFormatSpecifier"),
        parseError("title == \\", "unexpectedCharacter"),
        parseError("books.@foo > 1", "syntax"),
        parseError(String(repeating: "(", count: 300) + "a == 1" + String(repeating: ")", count: 300), "nestingTooDeep"),
        evaluationError(.books, "title == $T", "unsubstitutedVariable"),
        evaluationError(.books, "isbn > 3", "typeMismatch"),
        evaluationError(.books, "views > \"many\"", "typeMismatch"),
        evaluationError(.books, "title BEGINSWITH 3", "typeMismatch"),
        evaluationError(.books, "title.length == 3", "notAnObject"),
        evaluationError(.books, "nonexistent == 1", "unknownKey"),
        evaluationError(.authors, "books.views > 10", "collectionNeedsModifier"),
        evaluationError(.authors, "ANY name == \"Ana\"", "modifierNeedsCollection"),
        evaluationError(.authors, "name.@count > 1", "aggregateNeedsCollection"),
        evaluationError(.authors, "publisher.@count > 0", "aggregateNeedsCollection"),
        evaluationError(.authors, "books.@sum.title > 0", "aggregateValueKind"),
    ]
}

@Suite("A table of predicate strings evaluated against a fixed library")
struct PredicateTableTests {
    @Test("The table covers at least 80 predicate strings")
    func tableSize() {
        #expect(PredicateTable.cases.count >= 80)
    }

    @Test("Each predicate string gives its expected matches or error", arguments: PredicateTable.cases)
    func row(_ row: PredicateCase) throws {
        let predicate: FetchPredicate
        do {
            predicate = try FetchPredicate(format: row.format, arguments: row.arguments).substituting(row.variables)
        } catch {
            #expect(.parseError(caseName(error)) == row.expected, "\(error)")
            return
        }
        do {
            var matches: Set<String> = []
            for subject in row.subjects where try predicate.evaluate(with: subject) {
                matches.insert(subject.label)
            }
            #expect(.matches(matches) == row.expected)
        } catch {
            #expect(.evaluationError(caseName(error)) == row.expected, "\(error)")
        }
    }
}
