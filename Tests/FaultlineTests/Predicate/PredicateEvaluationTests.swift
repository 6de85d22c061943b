import Faultline
import Foundation
import Testing

private func holds(_ format: String, _ arguments: [PredicateValue] = [], on subject: DictionarySubject) throws -> Bool {
    try FetchPredicate(format: format, arguments: arguments).evaluate(with: subject)
}

private let empty = DictionarySubject("Empty", ["items": .many([]), "nothing": nil])

@Suite("The evaluator follows NSPredicate's semantics, exactly where numbers meet")
struct PredicateEvaluationTests {
    @Test("Integers and doubles compare exactly, without rounding the integer")
    func integerAgainstDouble() throws {
        let big = DictionarySubject("N", ["n": .value(.int(9_007_199_254_740_993)), "max": .value(.int(.max))])
        #expect(try holds("n > %@", [.double(9_007_199_254_740_992)], on: big))
        #expect(try !holds("n == %@", [.double(9_007_199_254_740_992)], on: big))
        #expect(try holds("max < %@", [.double(0x1p63)], on: big))
        #expect(try holds("n < 9007199254740993.5", on: big))
        #expect(try holds("n > -1e300 AND n < 1e300", on: big))
        let fraction = DictionarySubject("N", ["n": 2, "d": 2.5])
        #expect(try holds("n < 2.5 AND n > 1.5 AND n == 2.0 AND d > n AND d BETWEEN {2, 3}", on: fraction))
    }

    @Test("Decimals compare exactly with integers, and with a double's shortest decimal form")
    func decimals() throws {
        let tenth = DictionarySubject("N", ["d": .value(.decimal(Decimal(string: "0.1") ?? 0))])
        #expect(try holds("d == 0.1 AND d < 1 AND d > 0 AND d != 0.10000000000000002", on: tenth))
        #expect(try holds("d == %@", [.decimal(Decimal(string: "0.10") ?? 0)], on: tenth))
    }

    @Test("NaN is unordered: every comparison is false except !=")
    func notANumber() throws {
        let nan = DictionarySubject("N", ["x": .value(.double(.nan))])
        for format in ["x == x", "x < 1", "x >= 1", "x BETWEEN {0, 1}", "x IN {1}"] {
            #expect(try !holds(format, on: nan), "\(format)")
        }
        #expect(try holds("x != 1", on: nan))
    }

    @Test("Aggregates over an empty collection: @count 0, @sum 0, @avg/@min/@max nil")
    func emptyAggregates() throws {
        #expect(try holds("items.@count == 0 AND items.@sum.v == 0", on: empty))
        #expect(try holds("items.@avg.v == nil AND items.@min.v == nil AND items.@max.v == nil", on: empty))
        #expect(try holds("nothing.@count == 0", on: empty))
    }

    @Test("Over an empty collection ALL and NONE hold, ANY does not")
    func emptyQuantifiers() throws {
        #expect(try holds("ALL items.v == 1", on: empty))
        #expect(try holds("NONE items.v == 1", on: empty))
        #expect(try !holds("ANY items.v == 1", on: empty))
        #expect(try holds("SUBQUERY(items, $i, $i.v == 1).@count == 0", on: empty))
    }

    @Test("MATCHES matches the whole string, whatever the alternation or mode")
    func fullStringRegex() throws {
        let subject = DictionarySubject("S", ["s": "ab", "t": "line1\nline2"])
        #expect(try holds("s MATCHES 'a|ab'", on: subject))
        #expect(try !holds("s MATCHES 'a'", on: subject))
        #expect(try !holds("s MATCHES 'b'", on: subject))
        #expect(try holds("s MATCHES '(?x) a b # a comment'", on: subject))
        #expect(try holds("s MATCHES[c] 'AB'", on: subject))
        #expect(try holds("s MATCHES 'a\\\\Qb'", on: subject))
        #expect(try !holds("t MATCHES 'line1'", on: subject))
        #expect(try holds("t MATCHES '(?s)line1.line2'", on: subject))
        #expect(throws: FetchPredicateError.invalidRegularExpression(offset: nil, pattern: "(")) {
            try FetchPredicate(format: "s MATCHES $P").substituting(["P": "("]).evaluate(with: subject)
        }
    }

    @Test("LIKE wildcards: * any run, ? one character, anchored at both ends")
    func likeWildcards() throws {
        let subject = DictionarySubject("S", ["s": "aaaaab", "e": "", "u": "é😀"])
        for (pattern, expected) in [
            ("*a*b", true), ("a*", true), ("*b", true), ("?????b", true), ("????b", false), ("*c*", false),
            ("a*a*a*a*a*b", true), ("**", true), ("aaaaab?", false),
        ] {
            #expect(try holds("s LIKE %@", [.string(pattern)], on: subject) == expected, "\(pattern)")
        }
        #expect(try holds("e LIKE '*' AND NOT e LIKE '?'", on: subject))
        #expect(try holds("u LIKE '??' AND u LIKE[d] 'e*'", on: subject))
    }

    @Test("[c], [d] and [cd] fold case, diacritics or both; bare comparison is by scalar value")
    func options() throws {
        let subject = DictionarySubject("S", ["s": "Straße", "e": "e\u{301}", "f": "ﬁ"])
        #expect(try holds("s ==[cd] 'STRASSE'", on: subject))
        #expect(try holds("e ==[d] 'e' AND e ==[cd] 'É'", on: subject))
        #expect(try !holds("e == 'é'", on: subject))
        #expect(try holds("f ==[cd] 'fi'", on: subject))
        #expect(try holds("s BEGINSWITH[c] 'STRA'", on: subject))
    }

    @Test("== between different kinds is false, not an error; ordering them is an error")
    func kindMismatch() throws {
        let book = Library.books[0]
        #expect(try !holds("title == 3", on: book))
        #expect(try holds("title != 3", on: book))
        #expect(try !holds("published == 'x'", on: book))
        // A number would convert (a date is its seconds, as in the SQL store); text that is no number does not.
        #expect(throws: FetchPredicateError.typeMismatch(operator: "<", left: "date", right: "string")) {
            try holds("published < 'x'", on: book)
        }
    }

    @Test("AND and OR short-circuit left to right")
    func shortCircuit() throws {
        let book = Library.books[0]
        #expect(try !holds("FALSEPREDICATE AND nonexistent == 1", on: book))
        #expect(try holds("TRUEPREDICATE OR nonexistent == 1", on: book))
    }

    @Test("Inside SUBQUERY, plain key paths start from the evaluated object, $ paths from the element")
    func subqueryScope() throws {
        let matches = try Library.authors.filter {
            try holds("SUBQUERY(books, $b, $b.views > age).@count > 0", on: $0)
        }.map(\.label)
        #expect(matches == ["Ana", "Bob"])
    }

    @Test("Relationships compare with object IDs, in lists too")
    func objectIdentity() throws {
        let ids: PredicateValue = [.objectID(PredicateObjectID(entityName: "Author", primaryKey: 1))]
        let matches = try Library.books.filter { try holds("author IN %@", [ids], on: $0) }.map(\.label)
        #expect(matches == ["Café", "CAFE", "café"])
        #expect(try holds("publisher == %@", [.objectID(PredicateObjectID(entityName: "Publisher", primaryKey: 1))],
                          on: Library.authors[0]))
    }
}
