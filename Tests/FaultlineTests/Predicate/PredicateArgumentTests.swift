import Faultline
import Foundation
import Testing

private struct Unconvertible {}

@Suite("Arguments and variables become constants of the right kind")
struct PredicateArgumentTests {
    @Test("The documented example parses with literal-typed arguments")
    func example() throws {
        let predicate = try FetchPredicate(format: "name BEGINSWITH[cd] %@ AND views > %d", arguments: ["caf", 10])
        #expect(predicate.description == "name BEGINSWITH[cd] \"caf\" AND views > 10")
    }

    @Test("Swift values convert: strings, integers, floating point, Bool, Date, UUID, Data, Decimal, URL, arrays, sets, nil")
    func conversions() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1), uuid = UUID(), data = Data([9])
        let predicate = try FetchPredicate(
            format: "a == %@ AND b == %@ AND c == %@ AND d == %@ AND e == %@ AND f == %@ AND g == %@ AND h == %@ AND i IN %@ AND j IN %@ AND k == %@ AND l == %@ AND m == %@",
            "x", Int8(-3), UInt32(7), 1.5, true, date, uuid, data, [1, 2], Set(["s"]), nil, Optional<Int>.none,
            Decimal(string: "2.5") ?? 0)
        let values = Self.rightValues(predicate.root)
        #expect(values == [
            "x", -3, 7, 1.5, true, .date(date), .uuid(uuid), .data(data), [1, 2], ["s"], nil, nil,
            .decimal(Decimal(string: "2.5") ?? 0),
        ])
        #expect(try FetchPredicate(format: "a == %@", Optional<String>.some("y")).description == "a == \"y\"")
        // A URL is the text a URI attribute is stored as.
        #expect(try FetchPredicate(format: "a == %@", URL(string: "https://example.com/ä?q=1")).description
            == "a == \"https://example.com/%C3%A4?q=1\"")
        #expect(try FetchPredicate(format: "a IN %@", [Optional<Int>.none, 3]).description == "a IN {nil, 3}")
    }

    @Test("An array of optionals is one argument, as NSPredicate takes an array; argumentArray spreads one")
    func arrayOfOptionals() throws {
        let values: [Any?] = [nil, 1.5]
        #expect(try FetchPredicate(format: "rating IN %@", values).description == "rating IN {nil, 1.5}")
        #expect(try FetchPredicate(format: "rating IN %@", [nil, 1.5] as [Any?]).description == "rating IN {nil, 1.5}")
        #expect(try FetchRequest(entityName: "Book", format: "rating IN %@", values).predicate?.description == "rating IN {nil, 1.5}")
        #expect(try FetchPredicate(format: "a == %@ AND b == %@", argumentArray: ["x", 2]).description == "a == \"x\" AND b == 2")
        #expect(try FetchPredicate(format: "a == %@ AND b == %@", "x", 2).description == "a == \"x\" AND b == 2")
    }

    @Test("NSNumber arguments, as Core Data code passes them: booleans (0 or 1 for %d), integers, floating point, decimals, in arrays too")
    func numbers() throws {
        let predicate = try FetchPredicate(
            format: "a == %@ AND b == %@ AND c == %@ AND d == %@ AND e == %@ AND f == %d AND g IN %@",
            argumentArray: [NSNumber(value: true), NSNumber(value: Int32(7)), NSNumber(value: 2.5), NSNumber(value: Float(0.5)),
                            NSDecimalNumber(string: "1.25"), NSNumber(value: false), [NSNumber(value: 1), NSNumber(value: UInt64(2))]])
        #expect(Self.rightValues(predicate.root) == [true, 7, 2.5, 0.5, .decimal(Decimal(string: "1.25") ?? 0), 0, [1, 2]])
        #expect(throws: FetchPredicateError.self) {
            try FetchPredicate(format: "a == %@", argumentArray: [NSNumber(value: UInt64.max)])
        }
    }

    @Test("Foundation objects as Core Data code passes them (date as NSDate, NSString, NSUUID, NSData, NSURL, NSSet and NSOrderedSet for IN) are their Swift values")
    func foundationObjects() throws {
        let date = Date(timeIntervalSinceReferenceDate: 5), uuid = UUID(), bytes = Data([1, 2, 3])
        let predicate = try FetchPredicate(
            format: "a == %@ AND b == %@ AND c == %@ AND d == %@ AND e == %@ AND f IN %@ AND g IN %@",
            argumentArray: [date as NSDate, NSString(string: "héllo"), NSUUID(uuidString: uuid.uuidString) as Any,
                            NSData(data: bytes), NSURL(string: "https://example.com/a") as Any,
                            NSSet(array: [NSNumber(value: 2)]), NSOrderedSet(array: ["x", "y"])])
        #expect(Self.rightValues(predicate.root) == [
            .date(date), "héllo", .uuid(uuid), .data(bytes), "https://example.com/a", [2], ["x", "y"],
        ])
        #expect(throws: FetchPredicateError.self) {
            try FetchPredicate(format: "a == %@", argumentArray: [NSObject()])
        }
    }

    @Test("A fetch with an NSNumber argument finds the row an Int64 finds (Core Data by Tutorials' CampSiteService)")
    func numberArgumentFetches() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for pages in [Int64(10), 20] {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("Pages \(pages)", forKey: "title")
                try book.setValue(pages, forKey: "pages")
            }
            try context.save()
            let request = FetchRequest(entityName: "Book", predicate: try FetchPredicate(format: "%K = %@", argumentArray: ["pages", NSNumber(value: 20)]))
            #expect(try context.fetch(request).map { $0.value(forKey: "title") as? String } == ["Pages 20"])
            let none = try FetchRequest(entityName: "Book", format: "%K = %@", "pages", NSNumber(value: 30))
            #expect(try context.count(for: none) == 0)
        }
    }

    @Test("NSNull is nil, alone and in an array (dictionary results and committed values hold it)")
    func null() throws {
        #expect(try FetchPredicate(format: "a == %@", NSNull()).description == "a == nil")
        #expect(try FetchPredicate(format: "a IN %@", [NSNull(), 1.5] as [Any]).description == "a IN {nil, 1.5}")
    }

    @Test("Unconvertible arguments are a typed error naming the argument")
    func unconvertible() {
        #expect(throws: PredicateArgumentTests.error(.unsupportedArgumentType(index: 1, type: "Unconvertible"))) {
            try FetchPredicate(format: "a == %@ AND b == %@", 1, Unconvertible())
        }
        #expect(throws: FetchPredicateError.self) {
            try FetchPredicate(format: "a == %@", UInt64.max)
        }
        #expect(throws: FetchPredicateError.self) {
            try FetchPredicate(format: "a IN %@", [Unconvertible()])
        }
    }

    @Test("%d, %i, %ld take integers (and booleans); %u a non-negative integer; %f a number; %s a string")
    func specifiers() throws {
        #expect(try FetchPredicate(format: "a == %d AND b == %i AND c == %lld", arguments: [1, 2, true]).description
            == "a == 1 AND b == 2 AND c == 1")
        #expect(try FetchPredicate(format: "a == %f AND b == %lf", arguments: [2, 2.5]).description == "a == 2.0 AND b == 2.5")
        #expect(try FetchPredicate(format: "a == %u AND b == %s", arguments: [3, "x"]).description == "a == 3 AND b == \"x\"")
        #expect(throws: Self.error(.wrongArgumentType(offset: 5, specifier: "%u", index: 0, found: "integer"))) {
            try FetchPredicate(format: "a == %u", arguments: [-1])
        }
        #expect(throws: Self.error(.wrongArgumentType(offset: 5, specifier: "%d", index: 0, found: "double"))) {
            try FetchPredicate(format: "a == %d", arguments: [1.5])
        }
        #expect(throws: Self.error(.wrongArgumentType(offset: 0, specifier: "%K", index: 0, found: "integer"))) {
            try FetchPredicate(format: "%K == 1", arguments: [1])
        }
    }

    @Test("%K takes a key path of identifiers, never syntax")
    func keyPathArguments() throws {
        #expect(try FetchPredicate(format: "%K == 1", arguments: ["a.b"]).description == "a.b == 1")
        #expect(try FetchPredicate(format: "%K == 1", arguments: ["size"]).description == "#size == 1")
        for injection in ["a == 1 OR b", "a; DROP TABLE x", "a.", "", "1a", "a.@count", "\"a\""] {
            #expect(throws: Self.error(.invalidKeyPathArgument(offset: 0, keyPath: injection))) {
                try FetchPredicate(format: "%K == 1", arguments: [.string(injection)])
            }
        }
    }

    @Test("Arguments are consumed in order; too few is an error, extra ones are ignored as Core Data ignores them")
    func argumentCount() throws {
        #expect(throws: Self.error(.missingArgument(offset: 17, specifier: "%@", index: 1))) {
            try FetchPredicate(format: "a == %@ AND b == %@", arguments: [1])
        }
        #expect(try FetchPredicate(format: "a == %@", arguments: [1, 2, 3]) == FetchPredicate(format: "a == 1"))
        // A quoted '%@' is a literal: its argument goes unused.
        #expect(try FetchPredicate(format: "a == '%@'", arguments: ["x"]) == FetchPredicate(format: "a == \"%@\""))
    }

    @Test("$VARIABLE is substituted; a SUBQUERY's own variable is not")
    func substitution() throws {
        let predicate = try FetchPredicate(format: "a == $X AND SUBQUERY(b, $X, $X.c == $Y).@count > 0")
        let substituted = try predicate.substituting(["X": 1, "Y": "y"])
        #expect(substituted.description == "a == 1 AND SUBQUERY(b, $X, $X.c == \"y\").@count > 0")
        #expect(try predicate.substituting([:]) == predicate)
        #expect(throws: Self.error(.variableWithKeyPath(name: "V"))) {
            try FetchPredicate(format: "$V.name == 1").substituting(["V": 1])
        }
        #expect(throws: Self.error(.unsubstitutedVariable(name: "X"))) {
            try FetchPredicate(format: "name == $X").evaluate(with: Library.authors[0])
        }
    }

    @Test("variableNames lists the free $VARIABLEs: not a SUBQUERY's own, and none once substituted")
    func variableNames() throws {
        let predicate = try FetchPredicate(format: "a == $X AND SUBQUERY(b, $S, $S.c == $Y).@count > 0 AND TERNARY(d == $Z, 1, 2) == $V.e")
        #expect(predicate.variableNames == ["X", "Y", "Z", "V"])
        #expect(try predicate.substituting(["X": 1, "Y": 2, "Z": 3]).variableNames == ["V"])
        #expect(try FetchPredicate(format: "a == 1").variableNames.isEmpty)
    }

    private static func error(_ error: FetchPredicateError) -> FetchPredicateError { error }

    /// The right-hand constants of a conjunction of comparisons, in order.
    private static func rightValues(_ node: PredicateNode) -> [PredicateValue] {
        guard case .and(let terms) = node else { return [] }
        return terms.compactMap { term in
            guard case .comparison(let comparison) = term, case .value(let value) = comparison.right else { return nil }
            return value
        }
    }
}
