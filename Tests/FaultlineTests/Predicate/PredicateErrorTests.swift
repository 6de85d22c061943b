@testable import Faultline
import Foundation
import Testing


private func parseError(_ format: String, _ arguments: [PredicateValue] = []) -> FetchPredicateError? {
    do {
        _ = try FetchPredicate(format: format, arguments: arguments)
        return nil
    } catch {
        return error
    }
}

@Suite("Malformed predicates fail with a typed error at the right offset, never a crash")
struct PredicateErrorTests {
    @Test("A missing value names the operator, the UTF-8 offset and what was found")
    func missingValue() throws {
        let error = try #require(parseError("views > 3 && == 4 AND x == 1"))
        #expect(error == .syntax(offset: 13, found: "'=='", expected: "a predicate"))
        let missing = try #require(parseError("views > 3 AND x == AND y == 1"))
        #expect(missing.description == "expected a value after '==' at offset 19, found 'AND'")
        #expect(missing.offset == 19)
    }

    @Test("Offsets count UTF-8 bytes, not characters")
    func utf8Offsets() throws {
        let format = "title == \"Café\" AND"
        let error = try #require(parseError(format))
        #expect(error.offset == format.utf8.count)
        #expect(format.utf8.count != format.count)
    }

    @Test("Each malformed string gives its own error", arguments: [
        ("name == \"abc", FetchPredicateError.unterminatedString(offset: 8)),
        ("name == 'a\\", .unterminatedString(offset: 8)),
        ("name == \"\\x\"", .invalidEscape(offset: 9, sequence: "\\x")),
        ("name == \"\\u12G4\"", .invalidEscape(offset: 9, sequence: "\\u12")),
        ("name == \"\\uD800x\"", .invalidEscape(offset: 9, sequence: "\\uD800")),
        ("(name == 1", .unbalancedParenthesis(offset: 0)),
        ("name == 1)", .unbalancedParenthesis(offset: 9)),
        ("(name == 1 AND (x == 2)", .unbalancedParenthesis(offset: 0)),
        ("name === 1", .syntax(offset: 7, found: "'='", expected: "a value after '=='")),
        ("name FOO 1", .unknownOperator(offset: 5, text: "FOO")),
        ("name ; 1", .unknownOperator(offset: 5, text: ";")),
        ("name | 1", .syntax(offset: 8, found: "the end of the predicate", expected: "a comparison operator")),
        ("name ==[q] 1", .unknownOption(offset: 8, text: "q")),
        ("name == %q", .unknownFormatSpecifier(offset: 8, text: "%q")),
        ("views == 12abc", .invalidNumber(offset: 9, text: "12abc")),
        ("views == 0x", .invalidNumber(offset: 9, text: "0x")),
        ("views == 1e999", .invalidNumber(offset: 9, text: "1e999")),
        ("views == 0x10000000000000000", .invalidNumber(offset: 9, text: "0x10000000000000000")),
        ("views == -0b10000000000000000000000000000000000000000000000000000000000000001", .invalidNumber(offset: 9, text: "-0b10000000000000000000000000000000000000000000000000000000000000001")),
        ("first == 1", .reservedWord(offset: 0, word: "first")),
        ("a.size == 1", .reservedWord(offset: 2, word: "size")),
        ("a BETWEEN {1, 2, 3}", .invalidOperand(offset: 10, operator: "BETWEEN", expected: "{lower, upper}")),
        ("a BETWEEN 3", .invalidOperand(offset: 10, operator: "BETWEEN", expected: "{lower, upper}")),
        ("a IN TRUE", .invalidOperand(offset: 5, operator: "IN", expected: "a collection or a string")),
        ("a MATCHES \"[\"", .invalidRegularExpression(offset: 10, pattern: "[")),
        ("ANY 3 == 1", .syntax(offset: 4, found: "'3'", expected: "a to-many key path after ANY")),
        ("a.@median > 1", .syntax(offset: 2, found: "'@median'", expected: "@count, @sum, @avg, @min or @max")),
        ("a.@count.b > 1", .syntax(offset: 8, found: "'.'", expected: "the end of the key path after a.@count")),
        ("SUBQUERY(a, b, TRUEPREDICATE).@count > 0", .syntax(offset: 12, found: "'b'", expected: "a $variable in SUBQUERY")),
        ("a == CAST(\"x\", \"NSDate\")", .invalidOperand(offset: 10, operator: "CAST", expected: "a constant convertible to NSDate")),
        ("", .syntax(offset: 0, found: "the end of the predicate", expected: "a predicate")),
        ("a == 1 b == 2", .syntax(offset: 7, found: "'b'", expected: "AND, OR or the end of the predicate")),
        ("name == \\", .unexpectedCharacter(offset: 8, character: "\\")),
    ])
    func malformed(format: String, expected: FetchPredicateError) {
        #expect(parseError(format) == expected)
    }

    @Test("Every error has a non-empty message, and parse errors carry an offset")
    func messages() throws {
        for format in ["a ==", "\"", "(", ")", "a ~ b", "a ==[x] 1", "%", "1x", "size == 1", "a IN 1"] {
            let error = try #require(parseError(format), "\(format)")
            #expect(!error.description.isEmpty)
            #expect(error.offset != nil, "\(format)")
        }
    }

    @Test("Nesting is capped at PredicateDepth.limit levels for parentheses, NOT, lists and SUBQUERY")
    func nestingLimit() throws {
        let limit = PredicateDepth.limit
        func parens(_ depth: Int) -> String {
            String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        }
        #expect(parseError(parens(limit)) == nil)
        #expect(parseError(parens(limit + 1)) == .nestingTooDeep(offset: limit, limit: limit))
        #expect(parseError(parens(100_000))?.offset == limit)
        let nots = String(repeating: "NOT ", count: 100_000) + "a == 1"
        #expect(parseError(nots) == .nestingTooDeep(offset: limit * 4, limit: limit))
        let lists = "a IN " + String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000)
        #expect(parseError(lists) == .nestingTooDeep(offset: 5 + limit, limit: limit))
        let subqueries = String(repeating: "SUBQUERY(a, $x, ", count: 1_000)
        #expect(parseError(subqueries)?.offset != nil)
    }

    @Test("A chain of 50,000 terms is one flat node: it parses, prints and evaluates")
    func longChain() throws {
        let format = (0..<50_000).map { "age != \($0 + 100)" }.joined(separator: " AND ")
        let predicate = try FetchPredicate(format: format)
        #expect(predicate.description == format)
        #expect(try predicate.evaluate(with: Library.authors[0]))
    }

    @Test("Evaluation errors name what went wrong")
    func evaluationMessages() throws {
        let book = Library.books[0]
        #expect(throws: FetchPredicateError.unknownKey(entity: "Book", key: "nonexistent")) {
            try FetchPredicate(format: "nonexistent == 1").evaluate(with: book)
        }
        #expect(throws: FetchPredicateError.typeMismatch(operator: ">", left: "integer", right: "string")) {
            try FetchPredicate(format: "views > 'x'").evaluate(with: book)
        }
        #expect(throws: FetchPredicateError.collectionNeedsModifier(operator: "==")) {
            try FetchPredicate(format: "books.title == 'x'").evaluate(with: Library.authors[0])
        }
        #expect(throws: FetchPredicateError.aggregateNeedsCollection(aggregate: "@count", found: "to-one object")) {
            try FetchPredicate(format: "author.@count == 1").evaluate(with: book)
        }
        #expect(throws: FetchPredicateError.aggregateNeedsAttribute(aggregate: "@max")) {
            try FetchPredicate(format: "books.@max > 1").evaluate(with: Library.authors[0])
        }
        #expect(throws: FetchPredicateError.aggregateValueKind(aggregate: "@sum", expected: "numbers", found: "string")) {
            try FetchPredicate(format: "books.@sum.title > 1").evaluate(with: Library.authors[0])
        }
        let overflow = DictionarySubject("Shelf", ["items": .many([
            DictionarySubject("Item", ["n": .value(.int(.max))]), DictionarySubject("Item", ["n": 1]),
        ])])
        #expect(throws: FetchPredicateError.arithmeticOverflow(aggregate: "@sum")) {
            try FetchPredicate(format: "items.@sum.n > 0").evaluate(with: overflow)
        }
        #expect(FetchPredicateError.unknownKey(entity: "Book", key: "x").description == "entity Book has no key 'x'")
    }
}
