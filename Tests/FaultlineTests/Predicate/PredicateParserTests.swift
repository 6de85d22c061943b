import Faultline
import Foundation
import Testing

private func parse(_ format: String, _ arguments: [PredicateValue] = []) throws -> PredicateNode {
    try FetchPredicate(format: format, arguments: arguments).root
}

private func key(_ components: String...) -> FetchExpression {
    .keyPath(PredicateKeyPath(components))
}

private func compare(
    _ left: FetchExpression, _ operation: PredicateOperator, _ right: PredicateValue,
    options: PredicateComparisonOptions = [], modifier: PredicateModifier = .direct
) -> PredicateNode {
    .comparison(PredicateComparison(modifier: modifier, left, operation, options: options, .value(right)))
}

@Suite("The parser builds the tree the grammar and precedence describe")
struct PredicateParserTests {
    @Test("OR binds looser than AND, AND looser than NOT, NOT looser than a comparison")
    func precedence() throws {
        let a = compare(key("a"), .equal, 1), b = compare(key("b"), .equal, 2), c = compare(key("c"), .equal, 3)
        #expect(try parse("a == 1 OR b == 2 AND NOT c == 3") == .or([a, .and([b, .not(c)])]))
        #expect(try parse("(a == 1 OR b == 2) AND c == 3") == .and([.or([a, b]), c]))
        #expect(try parse("NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try parse("!!a == 1") == .not(.not(a)))
    }

    @Test("Chains of AND and OR are one n-ary node; parentheses keep their grouping")
    func naryChains() throws {
        let a = compare(key("a"), .equal, 1), b = compare(key("b"), .equal, 2), c = compare(key("c"), .equal, 3)
        #expect(try parse("a == 1 AND b == 2 && c == 3") == .and([a, b, c]))
        #expect(try parse("a == 1 || b == 2 OR c == 3") == .or([a, b, c]))
        #expect(try parse("a == 1 AND (b == 2 AND c == 3)") == .and([a, .and([b, c])]))
        #expect(try parse("((a == 1))") == a)
    }

    @Test("Keywords are case-insensitive")
    func caseInsensitiveKeywords() throws {
        #expect(try parse("a == 1 and b beginswith[CD] 'x' Or not c In {1} && ANY d.e Like 'y'")
            == parse("a == 1 AND b BEGINSWITH[cd] 'x' OR NOT c IN {1} AND any d.e LIKE 'y'"))
        #expect(try parse("truepredicate") == .constant(true))
        #expect(try parse("FalsePredicate") == .constant(false))
    }

    @Test("Every spelling of an operator gives the same operator", arguments: [
        ("=", PredicateOperator.equal), ("==", .equal), ("!=", .notEqual), ("<>", .notEqual),
        ("<", .less), ("<=", .lessOrEqual), ("=<", .lessOrEqual), (">", .greater),
        (">=", .greaterOrEqual), ("=>", .greaterOrEqual), ("contains", .contains),
        ("BEGINSWITH", .beginsWith), ("endsWith", .endsWith), ("LIKE", .like), ("matches", .matches),
    ])
    func operatorSpellings(spelling: String, operation: PredicateOperator) throws {
        #expect(try parse("a \(spelling) 'b'") == compare(key("a"), operation, "b"))
    }

    @Test("Options [c], [d] and [cd] in any order and case")
    func options() throws {
        #expect(try parse("a ==[c] 'x'") == compare(key("a"), .equal, "x", options: .caseInsensitive))
        #expect(try parse("a ==[d] 'x'") == compare(key("a"), .equal, "x", options: .diacriticInsensitive))
        for spelling in ["cd", "dc", "CD", "Dc"] {
            #expect(try parse("a LIKE[\(spelling)] 'x'")
                == compare(key("a"), .like, "x", options: [.caseInsensitive, .diacriticInsensitive]))
        }
    }

    @Test("Literals: strings with escapes, integers in every base, doubles, booleans, nil")
    func literals() throws {
        let cases: [(String, PredicateValue)] = [
            (#""a\"b\\c\n\t\r""#, .string("a\"b\\c\n\t\r")), (#"'it\'s'"#, .string("it's")),
            (#""\u00e9\uD83D\uDE00""#, .string("é😀")), ("'%@'", .string("%@")), ("\"\"", .string("")),
            ("42", .int(42)), ("-7", .int(-7)), ("0x1F", .int(31)), ("-0x10", .int(-16)), ("0o17", .int(15)),
            ("0b101", .int(5)), ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
            ("1.5", .double(1.5)), ("-2.5e3", .double(-2500)), ("1e-3", .double(0.001)), ("3E+2", .double(300)),
            ("TRUE", .bool(true)), ("yes", .bool(true)), ("FALSE", .bool(false)), ("No", .bool(false)),
            ("NIL", .null), ("null", .null), ("{1, 'a', nil}", [1, "a", nil]), ("{}", []),
        ]
        for (literal, value) in cases {
            #expect(try parse("a == \(literal)") == compare(key("a"), .equal, value), "\(literal)")
        }
    }

    @Test("Key paths: hops, composites, # escapes, SELF and variables")
    func keyPaths() throws {
        #expect(try parse("article.category.name == 1") == compare(key("article", "category", "name"), .equal, 1))
        #expect(try parse("colorScheme.primary == 1") == compare(key("colorScheme", "primary"), .equal, 1))
        #expect(try parse("#size == 1") == compare(key("size"), .equal, 1))
        #expect(try parse("a.#first == 1") == compare(key("a", "first"), .equal, 1))
        #expect(try parse("SELF == 1") == compare(.keyPath(PredicateKeyPath([])), .equal, 1))
        #expect(try parse("SELF.name == 1") == compare(key("name"), .equal, 1))
        #expect(try parse("$v.name == 1") == compare(.keyPath(PredicateKeyPath(variable: "v", ["name"])), .equal, 1))
        #expect(try parse("%K.c == 1", ["a.size"]) == compare(key("a", "size", "c"), .equal, 1))
    }

    @Test("ANY and SOME are one modifier; ALL and NONE are theirs")
    func modifiers() throws {
        #expect(try parse("ANY a.b == 1") == compare(key("a", "b"), .equal, 1, modifier: .any))
        #expect(try parse("some a.b == 1") == compare(key("a", "b"), .equal, 1, modifier: .any))
        #expect(try parse("ALL a.b == 1") == compare(key("a", "b"), .equal, 1, modifier: .all))
        #expect(try parse("NONE a.b == 1") == compare(key("a", "b"), .equal, 1, modifier: .none))
    }

    @Test("Aggregates are explicit nodes over the collection, with the element key path after")
    func aggregates() throws {
        #expect(try parse("articles.@count > 3") == compare(.aggregate(.count, of: key("articles"), keyPath: []), .greater, 3))
        #expect(try parse("articles.@sum.views > 3")
            == compare(.aggregate(.sum, of: key("articles"), keyPath: ["views"]), .greater, 3))
        for aggregate in PredicateAggregate.allCases where aggregate != .count {
            #expect(try parse("a.b.\(aggregate.rawValue).c.d == 1")
                == compare(.aggregate(aggregate, of: key("a", "b"), keyPath: ["c", "d"]), .equal, 1))
        }
    }

    @Test("SUBQUERY holds its collection, variable and predicate")
    func subquery() throws {
        let inner = compare(.keyPath(PredicateKeyPath(variable: "a", ["views"])), .greater, 10)
        let expected = compare(
            .aggregate(.count, of: .subquery(collection: key("articles"), variable: "a", predicate: inner), keyPath: []),
            .greater, 0)
        #expect(try parse("SUBQUERY(articles, $a, $a.views > 10).@count > 0") == expected)
    }

    @Test("BETWEEN and IN take lists, arguments and variables")
    func betweenAndIn() throws {
        #expect(try parse("a BETWEEN {1, 2}") == compare(key("a"), .between, [1, 2]))
        #expect(try parse("a BETWEEN %@", [[1, 2]]) == compare(key("a"), .between, [1, 2]))
        #expect(try parse("a IN %@", [["x"]]) == compare(key("a"), .in, ["x"]))
        let variables = FetchExpression.list([
            .keyPath(PredicateKeyPath(variable: "LO", [])), .keyPath(PredicateKeyPath(variable: "HI", [])),
        ])
        #expect(try parse("a BETWEEN {$LO, $HI}") == .comparison(PredicateComparison(key("a"), .between, variables)))
    }

    @Test("CAST spells dates, decimals, UUIDs, data and object IDs")
    func casts() throws {
        let id = UUID()
        #expect(try parse("a == CAST(10.5, \"NSDate\")") == compare(key("a"), .equal, .date(Date(timeIntervalSinceReferenceDate: 10.5))))
        #expect(try parse("a == CAST(\"1.25\", \"NSDecimalNumber\")") == compare(key("a"), .equal, .decimal(Decimal(string: "1.25") ?? 0)))
        #expect(try parse("a == CAST(\"\(id.uuidString)\", \"NSUUID\")") == compare(key("a"), .equal, .uuid(id)))
        #expect(try parse("a == CAST(\"AQID\", \"NSData\")") == compare(key("a"), .equal, .data(Data([1, 2, 3]))))
        #expect(try parse("a == CAST(\"Author/7\", \"NSManagedObjectID\")")
            == compare(key("a"), .equal, .objectID(PredicateObjectID(entityName: "Author", primaryKey: 7))))
    }
}
