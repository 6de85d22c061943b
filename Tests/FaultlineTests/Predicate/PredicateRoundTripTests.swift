import Faultline
import Foundation
import Testing

@Suite("The description is a canonical format string that parses back to the same tree")
struct PredicateRoundTripTests {
    static let formats = [
        "a + b * c == d - e / f", "(a + b) * c > 2 ** 3 ** 2", "-a < ~b", "a -1 == b*-2", "(a & 4) | (b ^ c) != a << 2 >> 1",
        "lowercase:(a) == uppercase:(b)", "d < now() - 86400", "sqrt:(abs:(a)) BETWEEN {1, 2 + 3}", "sum:(a.b) > count:(c)",
        "add:to:(a, from:subtract:(b, 1)) == raise:toPower:(2, c)", "modulus:by:(a, 3) IN {1, 2}",
        "a == 1", "a = 'x'", "a <> nil", "a =< 2 AND b => 3", "NOT a == 1", "!(a == 1 || b == 2)",
        "a == 1 AND (b == 2 OR c == 3) AND NOT (d == 4 AND e == 5)", "((a == 1) OR (b == 2))",
        "NOT NOT a == 1", "TRUEPREDICATE OR FALSEPREDICATE", "a BETWEEN {1, 2.5}", "a IN {'x', \"y\", nil, TRUE}",
        "a IN {}", "a IN {{1, 2}, {3}}", "a CONTAINS[c] 'x'", "a BEGINSWITH[d] 'x'", "a ENDSWITH[cd] 'x'",
        "a LIKE[dc] '*x?'", "a MATCHES 'x(y|z)+'", "#size == 1", "a.#first.#last == 1", "SELF == 1",
        "SELF.@count == 0", "$v == 1", "$v.#in.b == 1", "ANY a.b == 1", "SOME a.b == 1", "ALL a.b < 1",
        "NONE a.b > 1", "a.@count > 3", "a.@sum.b >= 1.5", "a.@avg.b.c < 1", "a.@min.#size == 1",
        "a.@max.b != nil", "SUBQUERY(a, $x, $x.b > 10 AND SUBQUERY($x.c, $y, $y.d == $x.e).@count > 0).@count > 0",
        "SUBQUERY(a, $x, TRUEPREDICATE).@sum.b == 2", "a == \"quote\\\" backslash\\\\ newline\\n tab\\t cr\\r\"",
        "a == \"\\u0001\\u007F\"", "a == 'é😀ß'", "a == -9223372036854775808", "a == 9223372036854775807",
        "a == 1e300", "a == 5e-324", "a == -0.0", "a == 0.1", "a == 123456789.123456789",
        "a BETWEEN {$LO, $HI}", "a IN {$X, 1}", "a == CAST(-978307200.25, \"NSDate\")",
        "a == CAST(\"-12.5\", \"NSDecimalNumber\")", "a == CAST(\"inf\", \"NSNumber\")",
        "a == CAST(\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", \"NSUUID\")", "a == CAST(\"AAEC\", \"NSData\")",
        "a == CAST(\"Author/42\", \"NSManagedObjectID\")", "\"x\" IN a", "1 < a", "a.b.c.d.e.f == a.b",
    ]

    @Test("parse(description) == tree", arguments: formats)
    func roundTrip(format: String) throws {
        let predicate = try FetchPredicate(format: format)
        let reparsed = try FetchPredicate(format: predicate.description)
        #expect(reparsed == predicate, "\(predicate.description)")
        #expect(reparsed.description == predicate.description)
    }

    @Test("Every row of the table that parses round-trips, with its arguments printed as constants")
    func tableRoundTrip() throws {
        for row in PredicateTable.cases {
            guard let predicate = try? FetchPredicate(format: row.format, arguments: row.arguments) else { continue }
            #expect(try FetchPredicate(format: predicate.description) == predicate, "\(row.format)")
        }
    }

    @Test("Constants of every kind round-trip through arguments")
    func argumentKinds() throws {
        let values: [PredicateValue] = [
            .null, true, false, 0, -1, .int(.max), .int(.min), 0.5, .double(-.infinity), .double(.infinity),
            .decimal(Decimal(string: "123.456") ?? 0), .decimal(Decimal(string: "-1E+40") ?? 0), "",
            "\"'\\\n\u{0}", .date(Date(timeIntervalSinceReferenceDate: -1e9 + 0.125)), .date(.distantFuture),
            .uuid(UUID()), .data(Data()), .data(Data((0...255).map(UInt8.init))), [1, [2, ["x"]], nil],
            .objectID(PredicateObjectID(entityName: "Book", primaryKey: -5)),
        ]
        for value in values {
            let predicate = try FetchPredicate(format: "a == %@", arguments: [value])
            #expect(try FetchPredicate(format: predicate.description) == predicate, "\(predicate.description)")
        }
    }

    @Test("The canonical form spells keywords, operators and options one way")
    func canonicalSpelling() throws {
        let predicate = try FetchPredicate(
            format: "title beginswith[dc] 'x' and not (a = 1 or b <> 2) && c => 3 || some d.e =< 4")
        #expect(predicate.description
            == "(title BEGINSWITH[cd] \"x\" AND NOT (a == 1 OR b != 2) AND c >= 3) OR ANY d.e <= 4")
        #expect(try FetchPredicate(format: "%K == 1", arguments: ["in.size"]).description == "#in.#size == 1")
    }
}
