@testable import Faultline
import Foundation
import Testing


/// Builds random and mutated format strings from a corpus of valid ones.
private struct PredicateMutator {
    var random: SeededGenerator
    let corpus: [[Unicode.Scalar]]

    static let tokens = [
        "AND", "OR", "NOT", "&&", "||", "!", "(", ")", "{", "}", "[cd]", "[c]", "[", "]", ",", ".", "==", "=", "!=",
        "<>", "<", "<=", "=<", ">", ">=", "=>", "BETWEEN", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE",
        "MATCHES", "ANY", "SOME", "ALL", "NONE", "SUBQUERY(", "$x", "$", "%@", "%K", "%d", "%f", "%", "#size",
        "#", "@count", ".@sum.", "@", "SELF", "nil", "TRUE", "NO", "TRUEPREDICATE", "FALSEPREDICATE", "CAST(",
        "\"NSDate\"", "\"", "'", "\\", "\\u", "\\uD800", "0x", "-", "1e", "1.5", "-9223372036854775809", "é",
        "😀", "\u{0}", " ", "\n", "a", "a.b", "size", "FIRST",
    ].map { Array($0.unicodeScalars) }

    static let characters = Array("abcXYZ019_ .,()[]{}'\"\\=<>!&|%@$#*?+-/^~:;éß😀\u{0}\u{301}\t\n".unicodeScalars)

    mutating func int(_ bound: Int) -> Int { Int.random(in: 0..<max(1, bound), using: &random) }

    mutating func string() -> String {
        var scalars: [Unicode.Scalar]
        switch int(10) {
        case 0:
            scalars = (0..<int(40)).flatMap { _ in Self.tokens[int(Self.tokens.count)] + [" "] }
        case 1:
            scalars = (0..<int(60)).map { _ in Self.characters[int(Self.characters.count)] }
        case 2:
            scalars = nested()
        case 3 where int(200) == 0:
            scalars = longKeyPath()
        default:
            scalars = corpus[int(corpus.count)]
            for _ in 0...int(4) { mutate(&scalars) }
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(text)
    }

    /// Deep nesting of one construct around a valid predicate, balanced or not.
    private mutating func nested() -> [Unicode.Scalar] {
        let openers: [(String, String)] = [
            ("(", ")"), ("NOT ", ""), ("!", ""), ("a IN {", "}"), ("SUBQUERY(a, $x, ", ").@count > 0"),
        ]
        let (open, close) = openers[int(openers.count)]
        // Around the limit, so both sides of it are exercised.
        let depth = int(3 * PredicateDepth.limit)
        let inner = open.hasPrefix("a IN") ? "1" : "a == 1"
        let closing = int(4) == 0 ? int(depth + 1) : depth
        return Array((String(repeating: open, count: depth) + inner + String(repeating: close, count: closing)).unicodeScalars)
    }

    /// `a.b.a.b…` of up to 10,002 components, some with an aggregate or a modifier.
    private mutating func longKeyPath() -> [Unicode.Scalar] {
        let path = (0..<1 + int(10_002)).map { $0 % 2 == 0 ? "books" : "author" }.joined(separator: ".")
        let forms = ["ANY \(path) == 1", "\(path).@count > 1", "\(path) == nil", "SUBQUERY(\(path), $x, $x.\(path) == 1).@count > 0"]
        return Array(forms[int(forms.count)].unicodeScalars)
    }

    private mutating func mutate(_ scalars: inout [Unicode.Scalar]) {
        let position = int(scalars.count + 1)
        switch int(7) {
        case 0:
            scalars.insert(Self.characters[int(Self.characters.count)], at: position)
        case 1 where !scalars.isEmpty:
            scalars.remove(at: min(position, scalars.count - 1))
        case 2 where !scalars.isEmpty:
            scalars[min(position, scalars.count - 1)] = Self.characters[int(Self.characters.count)]
        case 3:
            scalars.insert(contentsOf: Self.tokens[int(Self.tokens.count)], at: position)
        case 4 where position < scalars.count:
            scalars.removeSubrange(position..<min(scalars.count, position + 1 + int(8)))
        case 5:
            let other = corpus[int(corpus.count)]
            scalars = Array(scalars[..<position]) + other[int(other.count + 1)...]
        default:
            let end = min(scalars.count, position + int(10))
            scalars.insert(contentsOf: scalars[position..<end], at: position)
        }
    }

    mutating func arguments() -> [PredicateValue] {
        let choices: [PredicateValue] = ["a", "a.b", "x y", 1, -1, 2.5, true, nil, [1, 2], ["x"], [], "(", .date(.distantPast)]
        return (0..<int(4)).map { _ in int(8) == 0 ? deepArray() : choices[int(choices.count)] }
    }

    /// Arrays nested around the limit.
    private mutating func deepArray() -> PredicateValue {
        var value: PredicateValue = 1
        for _ in 0..<int(3 * PredicateDepth.limit) { value = .array([value]) }
        return value
    }
}

@Suite("The parser survives random and mutated input")
struct PredicateFuzzTests {
    @Test("100,000 random and mutated strings, deep nesting and long key paths: no crash, no hang, every success round-trips")
    func fuzz() throws {
        let formats = PredicateTable.cases.map(\.format) + ArithmeticPredicateTable.cases.map(\.format) + PredicateRoundTripTests.formats
        let corpus = formats.map { Array($0.unicodeScalars) }
        var mutator = PredicateMutator(random: SeededGenerator(seed: 0xFA17_11E5), corpus: corpus)
        var parsed = 0, failed = 0, roundTripFailures: [String] = []
        for _ in 0..<100_000 {
            let format = mutator.string()
            let predicate: FetchPredicate
            do {
                predicate = try FetchPredicate(format: format, arguments: mutator.arguments())
            } catch {
                failed += 1
                continue
            }
            parsed += 1
            if (try? FetchPredicate(format: predicate.description)) != predicate, roundTripFailures.count < 5 {
                roundTripFailures.append(format)
            }
            _ = try? predicate.evaluate(with: Library.authors[parsed % Library.authors.count])
        }
        #expect(parsed + failed == 100_000)
        #expect(parsed > 1_000, "the mutator should keep some strings valid")
        #expect(roundTripFailures.isEmpty, "\(roundTripFailures)")
    }
}
