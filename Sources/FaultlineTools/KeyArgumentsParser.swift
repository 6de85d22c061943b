import Faultline
import Foundation

/// The arguments of a typed key's initializer in Swift source — the key's
/// name and, for an `AttributeKey`, its `rules:` — read with
/// `SwiftSourceScanner`: `("title", rules: [.minimumLength(1), .pattern(#".*\S.*"#)])`.
/// Rules are read only in the spellings `model generate` writes and the
/// README documents; anything else is a failure naming what it found, since a
/// rule the check cannot read is a rule it cannot compare.
struct KeyArgumentsParser {
    typealias Failure = SwiftSourceScanner.Failure
    typealias Token = SwiftSourceScanner.Token

    private var scanner: SwiftSourceScanner
    private var lookahead: Token?

    /// `text` starts right after the initializer's opening parenthesis.
    init(_ text: Substring) { scanner = SwiftSourceScanner(text) }

    private mutating func peek() throws(Failure) -> Token? {
        if lookahead == nil { lookahead = try scanner.next() }
        return lookahead
    }

    private mutating func take() throws(Failure) -> Token? {
        let token = try peek()
        lookahead = nil
        return token
    }

    private mutating func expect(_ character: Character) throws(Failure) {
        let token = try take()
        guard token == .punctuation(character) else { throw Failure(description: "'\(character)' expected, found \(Self.describe(token))") }
    }

    private static func describe(_ token: Token?) -> String {
        switch token {
        case .identifier(let name): "'\(name)'"
        case .number(let text): text
        case .string(let text): text.debugDescription
        case .punctuation(let character): "'\(character)'"
        case nil: "the end of the file"
        }
    }

    /// The key's name and its rules, up to the closing parenthesis.
    mutating func arguments() throws(Failure) -> (key: String, rules: [ValidationRule]) {
        guard case .string(let key)? = try take() else { throw Failure(description: "the key's name must be a string literal") }
        var rules: [ValidationRule] = []
        if try peek() == .punctuation(",") {
            _ = try take()
            guard try take() == .identifier("rules") else { throw Failure(description: "only a rules: argument may follow the key's name") }
            try expect(":")
            try expect("[")
            while try peek() != .punctuation("]") {
                rules.append(try rule())
                if try peek() == .punctuation(",") { _ = try take() } else { break }
            }
            try expect("]")
        }
        try expect(")")
        return (key, rules)
    }

    /// `.kind(value)`, optionally written `ValidationRule.kind` or `Faultline.ValidationRule.kind`.
    private mutating func rule() throws(Failure) -> ValidationRule {
        let kind = try member(qualifiers: ["Faultline", "ValidationRule"])
        try expect("(")
        let rule: ValidationRule
        switch kind {
        case "minimumValue": rule = .minimumValue(try bound())
        case "maximumValue": rule = .maximumValue(try bound())
        case "minimumLength": rule = .minimumLength(try length())
        case "maximumLength": rule = .maximumLength(try length())
        case "pattern":
            guard case .string(let pattern)? = try take() else {
                throw Failure(description: "a pattern must be a string literal (a named constant is only known when the code runs)")
            }
            rule = .pattern(pattern)
        case "earliestDate": rule = .earliestDate(try date())
        case "latestDate": rule = .latestDate(try date())
        default: throw Failure(description: "no validation rule is called '\(kind)'")
        }
        try expect(")")
        return rule
    }

    /// A member written `.name`, or `Qualifier.name` with any suffix of `qualifiers`.
    private mutating func member(qualifiers: [String]) throws(Failure) -> String {
        var written: [String] = []
        if try peek() == .punctuation(".") {
            _ = try take()
        } else {
            while case .identifier(let name)? = try peek(), qualifiers.contains(name) {
                _ = try take()
                written.append(name)
                try expect(".")
            }
            guard !written.isEmpty, qualifiers.reversed().starts(with: written.reversed()) else {
                throw Failure(description: "a rule must be written .name(…), found \(Self.describe(try peek()))")
            }
        }
        guard case .identifier(let name)? = try take() else { throw Failure(description: "a member name expected after '.'") }
        return name
    }

    private mutating func signedNumber() throws(Failure) -> String {
        var sign = ""
        if try peek() == .punctuation("-") { _ = try take(); sign = "-" }
        guard case .number(let digits)? = try take() else { throw Failure(description: "a number literal expected") }
        return sign + digits
    }

    private mutating func length() throws(Failure) -> Int {
        let text = try signedNumber()
        guard let value = Int(text), value >= 0 else { throw Failure(description: "a length must be a non-negative integer, found \(text)") }
        return value
    }

    /// `.integer(Int64)`, `.double(Double)` or `.decimalLiteral("…")`.
    private mutating func bound() throws(Failure) -> NumericBound {
        let kind = try member(qualifiers: ["Faultline", "NumericBound"])
        try expect("(")
        let bound: NumericBound
        switch kind {
        case "integer":
            let text = try signedNumber()
            guard let value = Int64(text) else { throw Failure(description: "\(text) is not an Int64 literal") }
            bound = .integer(value)
        case "double":
            let text = try signedNumber()
            guard let value = Double(text), value.isFinite else { throw Failure(description: "\(text) is not a finite Double literal") }
            bound = .double(value)
        case "decimalLiteral":
            guard case .string(let text)? = try take(), case .decimal(let value) = NumericBound.decimalLiteral(text), !value.isNaN else {
                throw Failure(description: "decimalLiteral needs a decimal number in a string literal")
            }
            bound = .decimal(value)
        default:
            throw Failure(description: "a bound is .integer(…), .double(…) or .decimalLiteral(\"…\"), found .\(kind)")
        }
        try expect(")")
        return bound
    }

    /// `Date(timeIntervalSinceReferenceDate: n)`, `Date(timeIntervalSince1970: n)`,
    /// `.distantPast` or `.distantFuture`, `Date` optionally `Foundation.Date`.
    private mutating func date() throws(Failure) -> Date {
        if try peek() == .punctuation(".") {
            return try namedDate()
        }
        if try peek() == .identifier("Foundation") {
            _ = try take()
            try expect(".")
        }
        guard try take() == .identifier("Date") else {
            throw Failure(description: "a date bound is Date(timeIntervalSinceReferenceDate:), Date(timeIntervalSince1970:), .distantPast or .distantFuture")
        }
        if try peek() == .punctuation(".") { return try namedDate() }
        try expect("(")
        guard case .identifier(let label)? = try take(), ["timeIntervalSinceReferenceDate", "timeIntervalSince1970"].contains(label) else {
            throw Failure(description: "a date bound needs timeIntervalSinceReferenceDate: or timeIntervalSince1970: (a computed date is only known when the code runs)")
        }
        try expect(":")
        let text = try signedNumber()
        guard let seconds = Double(text), seconds.isFinite else { throw Failure(description: "\(text) is not a finite number of seconds") }
        try expect(")")
        return label == "timeIntervalSince1970" ? Date(timeIntervalSince1970: seconds) : Date(timeIntervalSinceReferenceDate: seconds)
    }

    private mutating func namedDate() throws(Failure) -> Date {
        try expect(".")
        switch try take() {
        case .identifier("distantPast"): return .distantPast
        case .identifier("distantFuture"): return .distantFuture
        case let other: throw Failure(description: "a date bound .distantPast or .distantFuture expected, found \(Self.describe(other))")
        }
    }
}
