@testable import Faultline
import Foundation
import Testing

/// `depth` arrays, one inside the other, around 1.
private func nestedValue(_ depth: Int) -> PredicateValue {
    var value: PredicateValue = 1
    for _ in 0..<depth { value = .array([value]) }
    return value
}

/// The same as Swift arrays of `Any`, as a caller would pass them.
private func nestedSwiftArray(_ depth: Int) -> [Any] {
    var value: [Any] = [1]
    for _ in 1..<depth { value = [value] }
    return value
}

private let limit = PredicateDepth.limit
private let bigStack = 64 << 20
private let workerStack = 512 << 10

@Suite("Nesting is bounded everywhere: the format string, arguments, variables and trees built in code")
struct PredicateNestingTests {
    @Test("A 10,000-level nested array argument is nestingTooDeep at its specifier, as Swift arrays or as values")
    func deepArgument() {
        let errors = onThread(stackSize: bigStack) { () -> [FetchPredicateError?] in
            func error(_ make: () throws(FetchPredicateError) -> FetchPredicate) -> FetchPredicateError? {
                do { _ = try make() } catch { return error }
                return nil
            }
            return [
                error { () throws(FetchPredicateError) in try FetchPredicate(format: "age IN %@", nestedSwiftArray(10_000)) },
                error { () throws(FetchPredicateError) in try FetchPredicate(format: "name == %@ OR age IN %@", "x", nestedSwiftArray(10_000)) },
                error { () throws(FetchPredicateError) in try FetchPredicate(format: "age IN %@", arguments: [nestedValue(10_000)]) },
            ]
        }
        #expect(errors == [
            .nestingTooDeep(offset: 7, limit: limit), .nestingTooDeep(offset: 21, limit: limit),
            .nestingTooDeep(offset: 7, limit: limit),
        ])
    }

    @Test("An argument's arrays count toward the limit with the lists around it")
    func argumentAtTheLimit() throws {
        #expect((try? FetchPredicate(format: "age IN %@", arguments: [nestedValue(limit)])) != nil)
        #expect(throws: FetchPredicateError.nestingTooDeep(offset: 7, limit: limit)) {
            try FetchPredicate(format: "age IN %@", arguments: [nestedValue(limit + 1)])
        }
        #expect(throws: FetchPredicateError.nestingTooDeep(offset: 8, limit: limit)) {
            try FetchPredicate(format: "age IN {%@}", arguments: [nestedValue(limit)])
        }
    }

    @Test("A substituted value deeper than the limit is nestingTooDeep without an offset")
    func deepVariable() throws {
        let predicate = try FetchPredicate(format: "age IN $v")
        #expect(throws: FetchPredicateError.nestingTooDeep(offset: nil, limit: limit)) {
            try predicate.substituting(["v": nestedValue(limit + 1)])
        }
        #expect((try? predicate.substituting(["v": nestedValue(limit)])) != nil)
    }

    /// Each nesting construct `depth` levels deep, as a format string.
    static func nested(_ depth: Int) -> [(name: String, format: String)] {
        [
            ("parentheses", String(repeating: "(age > 1 AND (name == \"x\" OR ", count: depth / 2) + "age == 40"
                + String(repeating: "))", count: depth / 2)),
            ("NOT", String(repeating: "NOT ", count: depth) + "age == 40"),
            ("constant lists", "age IN " + String(repeating: "{", count: depth) + "40" + String(repeating: "}", count: depth)),
            ("lists", "age IN " + String(repeating: "{age, ", count: depth) + "40" + String(repeating: "}", count: depth)),
            ("SUBQUERY", String(repeating: "SUBQUERY(books, $b, ", count: depth) + "$b.views > 1"
                + String(repeating: ").@count > 0", count: depth)),
            ("SUBQUERY collections", String(repeating: "SUBQUERY(", count: depth) + "books"
                + String(repeating: ", $b, $b.views > 1)", count: depth) + ".@count > 0"),
        ]
    }

    @Test("At the limit every construct parses, prints, evaluates, substitutes and compiles on a 512 KB stack")
    func atTheLimitOnAWorkerStack() throws {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let schema = container.coordinator.schema
        var author = Library.authors[0]
        author.fields["books"] = .many([Library.books[0]])
        let subject = author
        let failures = onThread(stackSize: workerStack) { () -> [String] in
            var failures: [String] = []
            for (name, format) in Self.nested(limit) {
                // Other errors (a list compared whole in SQL, SUBQUERY over SUBQUERY)
                // are the constructs' own; what matters is that the walks finish.
                func attempt(_ step: String, _ body: () throws -> Void) {
                    do { try body() } catch let error as FetchPredicateError {
                        if case .nestingTooDeep = error { failures.append("\(name) \(step): \(error)") }
                    } catch {}
                }
                guard let predicate = try? FetchPredicate(format: format) else {
                    failures.append("\(name): does not parse")
                    continue
                }
                if (try? FetchPredicate(format: predicate.description)) != predicate { failures.append("\(name): round trip") }
                attempt("evaluate") { _ = try predicate.evaluate(with: subject) }
                attempt("substitute") { _ = try predicate.substituting(["v": nestedValue(limit)]) }
                attempt("compile") { _ = try PredicateSQLCompiler.compile(predicate, entityName: "Author", schema: schema) }
            }
            return failures
        }
        #expect(failures == [])
    }

    @Test("One level past the limit every construct is nestingTooDeep with the offset of the level")
    func pastTheLimit() {
        for (name, format) in Self.nested(limit + 2) {
            #expect(throws: FetchPredicateError.self, "\(name)") { try FetchPredicate(format: format) }
            do {
                _ = try FetchPredicate(format: format)
            } catch {
                guard case .nestingTooDeep(let offset?, limit) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(offset > 0 && offset < format.utf8.count, "\(name)")
            }
        }
    }

    @Test("A tree built in code deeper than the limit is nestingTooDeep for evaluation, substitution and SQL")
    func deepTreeInCode() throws {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let schema = container.coordinator.schema
        let subject = Library.authors[0]
        let errors = onThread(stackSize: bigStack) { () -> [String] in
            var node = PredicateNode.comparison(PredicateComparison(.keyPath(PredicateKeyPath(["age"])), .equal, .value(40)))
            for _ in 0..<10_000 { node = .not(node) }
            let predicate = FetchPredicate(node)
            var errors: [String] = []
            for attempt in [
                { _ = try predicate.evaluate(with: subject) },
                { _ = try predicate.substituting([:]) },
                { _ = try PredicateSQLCompiler.compile(predicate, entityName: "Author", schema: schema) },
            ] as [() throws -> Void] {
                do {
                    try attempt()
                    errors.append("no error")
                } catch {
                    errors.append("\(error)")
                }
            }
            return errors
        }
        let expected = FetchPredicateError.nestingTooDeep(offset: nil, limit: limit).description
        #expect(errors == [expected, expected, expected])
    }
}
