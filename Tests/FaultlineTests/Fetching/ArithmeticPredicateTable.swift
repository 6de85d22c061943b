import Faultline
import Foundation

/// Arithmetic, bitwise operators and functions (`PredicateFunction`), run by
/// the SQL-against-evaluator table: every row must give the same objects in
/// SQL, in the evaluator and as written here. Integer and floating division,
/// NULL from a division by zero or a root of a negative, dates plus seconds,
/// negative literals after an operand, and the aggregate functions' spelling
/// of `@sum` and friends are each pinned by a row.
enum ArithmeticPredicateTable {
    private static func books(_ format: String, _ arguments: [PredicateValue] = [], _ titles: String...) -> PredicateCase {
        PredicateCase(format: format, arguments: arguments, entity: .books, expected: .matches(Set(titles)))
    }

    private static func authors(_ format: String, _ arguments: [PredicateValue] = [], _ names: String...) -> PredicateCase {
        PredicateCase(format: format, arguments: arguments, entity: .authors, expected: .matches(Set(names)))
    }

    private static func parseError(_ format: String, _ kind: String) -> PredicateCase {
        PredicateCase(format: format, entity: .books, expected: .parseError(kind))
    }

    private static func evaluationError(_ format: String, _ kind: String) -> PredicateCase {
        PredicateCase(format: format, entity: .books, expected: .evaluationError(kind))
    }

    static let all = ["Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"]

    static let cases: [PredicateCase] = [
        // Operators (views: Café 10, CAFE 20, café 50, Tea 5, Naïve Art 100, Résumé 0).
        books("views * 2 > 50", [], "café", "Naïve Art"),
        books("views + 5 == 15", [], "Café"),
        books("views - 10 <= 0", [], "Café", "Tea", "Résumé"),
        books("views / 4 == 2.5", [], "Café"),
        books("views / 4 == 2", []),
        books("views / 3 > 16.6 AND views / 3 < 16.7", [], "café"),
        books("views ** 2 > 400", [], "café", "Naïve Art"),
        books("2 ** 3 ** 2 == 512 AND views == 0", [], "Résumé"),
        books("(views & 4) != 0", [], "CAFE", "Tea", "Naïve Art"),
        books("(views | 1) == 21", [], "CAFE"),
        books("(views ^ 15) == 5", [], "Café"),
        books("views << 1 == 40", [], "CAFE"),
        books("views >> 2 == 12", [], "café"),
        books("~views == -11", [], "Café"),
        books("-views < -40", [], "café", "Naïve Art"),
        books("-(views) == -5", [], "Tea"),
        books("views -1 == 9", [], "Café"),
        books("views*-1 < -60", [], "Naïve Art"),
        books("views - -5 == 10", [], "Tea"),
        books("(views + 10) * 2 > 100 AND (views < 100)", [], "café"),
        books("(views > 10) AND ((views + 1) * 2 < 60)", [], "CAFE"),
        books("NOT (views * 2 > 50)", [], "Café", "CAFE", "Tea", "Résumé"),
        books("views BETWEEN {2 * 5, 10 + 10}", [], "Café", "CAFE"),
        books("views IN {5, 2 * 5}", [], "Café", "Tea"),
        books("views + 1 > %d", [.int(50)], "café", "Naïve Art"),
        // Prices: decimals in the store (Café 9.99, CAFE 15, café 7.5, Tea 3, Naïve Art 42, Résumé nil).
        books("price * 2 > 20", [], "CAFE", "Naïve Art"),
        books("price + views > 50", [], "café", "Naïve Art"),
        books("views + price == 57.5", [], "café"),
        books("price - 1 BETWEEN {2, 9}", [], "Café", "café", "Tea"),
        books("price * 0 == nil", [], "Résumé"),
        // Functions by name.
        books("abs:(views - 30) < 15", [], "CAFE"),
        books("sqrt:(views) == 10", [], "Naïve Art"),
        books("sqrt:(views - 20) > 5", [], "café", "Naïve Art"),
        books("sqrt:(views - 20) == nil", [], "Café", "Tea", "Résumé"),
        books("ceiling:(price) == 10", [], "Café"),
        books("floor:(price) == 7", [], "café"),
        books("trunc:(price) == 9", [], "Café"),
        books("ln:(views) > 4", [], "Naïve Art"),
        books("log:(views) == 2", [], "Naïve Art"),
        books("exp:(0) == 1 AND views == 5", [], "Tea"),
        books("raise:toPower:(views, 2) == 100", [], "Café"),
        books("modulus:by:(views, 3) == 1", [], "Café", "Naïve Art"),
        books("modulus:by:(price, 2) == 1.5", [], "café"),
        books("add:to:(views, 1) == 6", [], "Tea"),
        books("from:subtract:(views, 1) == 49", [], "café"),
        books("multiply:by:(views, 3) == 60", [], "CAFE"),
        books("divide:by:(views, 0) == 0", []),
        books("divide:by:(views, 0) == nil", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("bitwiseAnd:with:(views, 1) == 1", [], "Tea"),
        books("bitwiseOr:with:(views, 2) == 22", [], "CAFE"),
        books("bitwiseXor:with:(views, views) == 0", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("leftshift:by:(1, views) == 1024", [], "Café"),
        books("rightshift:by:(views, 1) == 25", [], "café"),
        books("onesComplement:(views) == -1", [], "Résumé"),
        books("lowercase:(title) == 'café'", [], "Café", "café"),
        books("uppercase:(title) == 'CAFE'", [], "CAFE"),
        books("lowercase:(title) BEGINSWITH 'na'", [], "Naïve Art"),
        books("uppercase:(subtitle) == 'GREEN'", [], "Tea"),
        // Dates: seconds since 2001 in arithmetic; a date ± seconds is a date.
        books("published > now() - 86400", []),
        books("published < now()", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("published + 86400 > %@", [.date(Library.day("2023-01-01"))], "Naïve Art"),
        books("published - %@ > 0", [.date(Library.day("2021-01-01"))], "CAFE", "café", "Naïve Art"),
        books("published - 86400 * 365 < %@", [.date(Library.day("2018-06-01"))], "Tea", "Résumé"),
        // Authors (age: Ana 40, Bob 25, Zoë 31; size 38, 44, 38; rating 4.5, 3, nil; balance 100.25, 0.5, nil).
        authors("age * 2 > 70", [], "Ana"),
        authors("age + #size > 70", [], "Ana"),
        authors("rating * 2 >= 6", [], "Ana", "Bob"),
        authors("balance * 4 > 1", [], "Ana", "Bob"),
        authors("(age & 1) == 1", [], "Bob", "Zoë"),
        authors("isActive + 1 == 2", [], "Ana", "Zoë"),
        authors("lowercase:(name) == 'zoë'", [], "Zoë"),
        authors("sum:(books.views) > 50", [], "Ana", "Bob"),
        authors("count:(books) == 0", [], "Zoë"),
        authors("max:(books.views) == 100", [], "Bob"),
        authors("min:(books.views) == 10", [], "Ana"),
        authors("average:(books.views) > 30", [], "Bob"),
        authors("books.@count * 10 == 30", [], "Ana", "Bob"),
        authors("age - books.@count == 37", [], "Ana"),
        // TERNARY, CAST of non-literals, constant predicates, %K.%K, extra arguments.
        books("TERNARY(views > 20, views, 0) > 40", [], "café", "Naïve Art"),
        books("TERNARY(price == nil, 1, price) < 5", [], "Tea", "Résumé"),
        books("TERNARY(subtitle != nil, subtitle, title) == 'Green'", [], "Tea"),
        books("TERNARY(views > 20 AND price > 10, 'big', 'small') == 'big'", [], "Naïve Art"),
        books("CAST(published, 'NSNumber') < %@", [.double(Library.day("2019-01-01").timeIntervalSinceReferenceDate)], "Résumé"),
        books("published > CAST(%@, 'NSDate')", [.double(Library.day("2022-06-01").timeIntervalSinceReferenceDate)], "Naïve Art"),
        books("CAST(views, 'NSDate') == CAST(10, 'NSDate')", [], "Café"),
        books("CAST(5, 'NSNumber') == views", [], "Tea"),
        books("CAST(views, 'NSString') == '10'", [], "Café"),
        books("CAST(price, 'NSString') == '15.0'", [], "CAFE"),
        books("CAST(price, 'NSString') BEGINSWITH '9.9'", [], "Café"),
        books("CAST(title, \"NSString\") == 'Tea'", [], "Tea"),
        books("CAST(42, 'NSString') == '42' AND views == 5", [], "Tea"),
        PredicateCase(format: "published > CAST($SINCE, 'NSDate')",
                      variables: ["SINCE": .double(Library.day("2022-06-01").timeIntervalSinceReferenceDate)],
                      entity: .books, expected: .matches(["Naïve Art"])),
        PredicateCase(format: "CAST(published, 'NSNumber') - $T < 0",
                      variables: ["T": .double(Library.day("2019-01-01").timeIntervalSinceReferenceDate)],
                      entity: .books, expected: .matches(["Résumé"])),
        books("CAST(views * 2, \"NSNumber\") == 20", [], "Café"),
        books("TRUE", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("FALSE OR views == 5", [], "Tea"),
        books("views == 5 AND YES", [], "Tea"),
        books("NOT (NO)", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        books("%K.%K == 'Orbit'", [.string("author"), .string("publisher.name")], "Café", "CAFE", "café"),
        books("title == 'Tea'", [.string("unused")], "Tea"),
        books("title == '%@'", [.string("Tea")]),
        // Index operators on literal arrays and arguments; quantified literal lists.
        books("{10, 20}[FIRST] == views", [], "Café"),
        books("{10, 20}[LAST] == views", [], "CAFE"),
        books("{5, 10, 20}[1] == views", [], "Café"),
        books("{5, 10}[SIZE] == 2 AND views == 0", [], "Résumé"),
        books("%@[LAST] == views", [.array([.int(1), .int(5)])], "Tea"),
        books("{1, 2}[5] == nil AND views == 5", [], "Tea"),
        books("ANY {5, 10} == views", [], "Café", "Tea"),
        books("ALL {1, 2} < views", [], "Café", "CAFE", "café", "Tea", "Naïve Art"),
        books("NONE {5, 10} == views", [], "CAFE", "café", "Naïve Art", "Résumé"),
        books("ANY {'Tea', 'CAFE'} ==[c] title", [], "Tea", "CAFE"),
        books("ANY %@ == views", [.array([.int(20), .int(50)])], "CAFE", "café"),
        authors("books[SIZE] == 3", [], "Ana", "Bob"),
        authors("ANY books.@distinctUnionOfObjects.title == 'Tea'", [], "Bob"),
        authors("'café' IN books.@unionOfObjects.title", [], "Ana"),
        authors("SUBQUERY(books, $b, $b.%K > 10).@count == 2", [.string("views")], "Ana"),
        authors("books[SIZE] == 0", [], "Zoë"),
        authors("books[SIZE] * 10 > age", [], "Bob"),
        books("noindex:(views) == 5", [], "Tea"),
        books("canonical:(title) == 'cafe'", [], "Café", "CAFE", "café"),
        books("canonical:(title) == searchName", [], "Café", "CAFE", "café", "Tea", "Naïve Art", "Résumé"),
        authors("canonical:(name) BEGINSWITH 'zo'", [], "Zoë"),
        books("published > CAST('2022-06-01T00:00:00Z', 'NSDate')", [], "Naïve Art"),
        authors("SUBQUERY(books, $b, $b.views > 10).count == 2", [], "Ana"),
        // Refusals, the same in SQL and in memory.
        parseError("FUNCTION(SELF, 'foo') == 1", "unsupportedFunction"),
        parseError("title UTI-CONFORMS-TO 'public.image'", "unsupportedOperator"),
        parseError("CAST('abc', 'NSNumber') > 1", "invalidOperand"),
        parseError("CAST(views, 'NSUUID') == nil", "invalidOperand"),
        parseError("TERNARY(views > 1, 2) == 2", "syntax"),
        evaluationError("CAST(title, 'NSNumber') > 1", "functionArgument"),
        parseError("median:(views) > 1", "unsupportedFunction"),
        parseError("frobnicate:(views) > 1", "unsupportedFunction"),
        parseError("random() > 1", "unsupportedFunction"),
        parseError("sqrt:(views, 2) > 1", "functionArity"),
        parseError("views + > 1", "syntax"),
        parseError("(views + 1 > 2", "unbalancedParenthesis"),
        evaluationError("lowercase:(views) == 'a'", "functionArgument"),
        evaluationError("title + 1 > 0", "functionArgument"),
    ]
}
