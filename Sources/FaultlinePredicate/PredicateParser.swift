import Foundation

/// Recursive descent over the tokens of a format string: the predicate levels
/// (OR < AND < NOT < comparison). Expressions, arguments and CAST are in
/// `PredicateParser+Expressions.swift`.
///
/// Invariants: each recursion into a nested construct (parentheses, NOT,
/// `{…}`, SUBQUERY) goes through `enter`, so the stack depth is at most
/// `PredicateDepth.limit` frames of each kind; every loop consumes a token per turn;
/// arguments are consumed left to right, one per specifier.
struct PredicateParser {
    private(set) var tokens: [PredicateToken]
    private(set) var index = 0
    let arguments: [PredicateValue]
    var argumentIndex = 0
    private(set) var depth = 0

    init(format: String, arguments: [PredicateValue]) throws(FetchPredicateError) {
        tokens = try PredicateLexer.tokenize(format)
        self.arguments = arguments
    }

    /// Parses the whole format string. Throws when tokens are left over;
    /// arguments past the last specifier are ignored, as Core Data ignores
    /// them (a quoted `'%@'` is a literal, and its argument goes unused).
    mutating func parse() throws(FetchPredicateError) -> PredicateNode {
        let node = try parseOr()
        if current.isPunctuation(")") { throw .unbalancedParenthesis(offset: current.offset) }
        guard current.kind == .end else {
            throw .syntax(offset: current.offset, found: current.quoted, expected: "AND, OR or the end of the predicate")
        }
        return node
    }

    // MARK: Token access

    var current: PredicateToken { tokens[index] }

    /// The current token, then moves past it (never past `.end`).
    @discardableResult
    mutating func advance() -> PredicateToken {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    /// Splits a number the lexer read with its minus sign (`-1`) into the
    /// operator `-` and the number, where it follows an operand (`a -1`).
    mutating func splitNegativeLiteral() {
        let token = current
        guard token.text.hasPrefix("-") else { return }
        let magnitude: PredicateToken.Kind
        switch token.kind {
        case .integer(let value) where value != .min: magnitude = .integer(-value)
        case .double(let value): magnitude = .double(-value)
        default: return
        }
        tokens[index] = PredicateToken(kind: .symbol("-"), offset: token.offset, text: "-")
        tokens.insert(PredicateToken(kind: magnitude, offset: token.offset + 1, text: String(token.text.dropFirst())), at: index + 1)
    }

    mutating func expectPunctuation(_ character: Unicode.Scalar, after context: @autoclosure () -> String) throws(FetchPredicateError) {
        guard current.isPunctuation(character) else {
            throw .syntax(offset: current.offset, found: current.quoted, expected: "'\(character)' \(context())")
        }
        advance()
    }

    /// Counts one level of nesting for the construct at the current token;
    /// throws past `PredicateDepth.limit`. Pair with `leave`.
    mutating func enter() throws(FetchPredicateError) {
        depth = try PredicateDepth.deeper(depth, offset: current.offset)
    }

    mutating func leave() { depth -= 1 }

    // MARK: Predicates

    mutating func parseOr() throws(FetchPredicateError) -> PredicateNode {
        var terms = [try parseAnd()]
        while current.isKeyword("OR") || current.kind == .symbol("||") {
            advance()
            terms.append(try parseAnd())
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseAnd() throws(FetchPredicateError) -> PredicateNode {
        var terms = [try parseNot()]
        while current.isKeyword("AND") || current.kind == .symbol("&&") {
            advance()
            terms.append(try parseNot())
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseNot() throws(FetchPredicateError) -> PredicateNode {
        guard current.isKeyword("NOT") || current.kind == .symbol("!") else {
            return try parsePrimaryPredicate()
        }
        try enter()
        defer { leave() }
        advance()
        return .not(try parseNot())
    }

    private mutating func parsePrimaryPredicate() throws(FetchPredicateError) -> PredicateNode {
        if current.isPunctuation("("), !parenthesesOpenAnOperand {
            try enter()
            defer { leave() }
            let open = advance()
            let node = try parseOr()
            guard current.isPunctuation(")") else {
                if current.kind == .end { throw .unbalancedParenthesis(offset: open.offset) }
                throw .syntax(offset: current.offset, found: current.quoted, expected: "AND, OR or ')'")
            }
            advance()
            return node
        }
        if current.isKeyword("TRUEPREDICATE", "FALSEPREDICATE") {
            return .constant(advance().keyword == "TRUEPREDICATE")
        }
        // `TRUE` or `FALSE` (`YES`, `NO`) standing alone is a constant predicate, as in Core Data.
        if current.isKeyword("TRUE", "YES", "FALSE", "NO"), index + 1 < tokens.count, Self.endsPredicate(tokens[index + 1]) {
            return .constant(advance().isKeyword("TRUE", "YES"))
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws(FetchPredicateError) -> PredicateNode {
        var modifier = PredicateModifier.direct
        if let keyword = current.keyword, ["ANY", "SOME", "ALL", "NONE"].contains(keyword) {
            modifier = keyword == "ALL" ? .all : keyword == "NONE" ? .none : .any
            advance()
        }
        let leftToken = current
        let left = try parseArithmetic(context: modifier == .direct ? "a predicate" : "a key path after \(modifier.rawValue)")
        // `ANY {1, 2, 3} == x`: a literal collection quantified is one comparison per element.
        var elements: [FetchExpression]?
        switch left {
        case .list(let items) where modifier != .direct: elements = items
        case .value(.array(let values)) where modifier != .direct: elements = values.map { .value($0) }
        default: break
        }
        if modifier != .direct, elements == nil, !left.canBeQuantified {
            throw .syntax(offset: leftToken.offset, found: leftToken.quoted, expected: "a to-many key path after \(modifier.rawValue)")
        }
        let operatorToken = current
        let operation = try parseOperator()
        let options = try parseOptions()
        let rightToken = current
        let right = try parseArithmetic(context: "a value after '\(operatorToken.text)'")
        try validate(operation, right: right, at: rightToken)
        guard let elements else { return .comparison(PredicateComparison(modifier: modifier, left, operation, options: options, right)) }
        let terms = elements.map { PredicateNode.comparison(PredicateComparison($0, operation, options: options, right)) }
        let any: PredicateNode = terms.count == 1 ? terms[0] : terms.isEmpty ? .constant(false) : .or(terms)
        switch modifier {
        case .all: return terms.count == 1 ? terms[0] : terms.isEmpty ? .constant(true) : .and(terms)
        case .none: return .not(any)
        default: return any
        }
    }

    /// Whether `token` ends a predicate: AND, OR, `)` or the end.
    private static func endsPredicate(_ token: PredicateToken) -> Bool {
        token.kind == .end || token.isPunctuation(")") || token.isPunctuation(",") || token.isKeyword("AND", "OR")
            || token.kind == .symbol("&&") || token.kind == .symbol("||")
    }

    /// Whether the `(` at the current token opens an operand (`(a + b) * 2 > c`)
    /// rather than a group of predicates (`(a > 1) AND b`): the token after its
    /// `)` is a comparison or arithmetic operator.
    private var parenthesesOpenAnOperand: Bool {
        var depth = 0
        var position = index
        while position < tokens.count {
            let token = tokens[position]
            if token.isPunctuation("(") { depth += 1 }
            if token.isPunctuation(")") {
                depth -= 1
                if depth == 0 { break }
            }
            if token.kind == .end { return false }
            position += 1
        }
        guard position + 1 < tokens.count else { return false }
        let next = tokens[position + 1]
        switch next.kind {
        case .symbol(let symbol): return symbol != "&&" && symbol != "||" && symbol != "!"
        case .identifier(let word, escaped: false):
            guard let operation = PredicateOperator(rawValue: next.keyword ?? word) else { return false }
            return operation.rawValue.first?.isLetter == true
        case .integer, .double: return next.text.hasPrefix("-")
        default: return false
        }
    }

    private static let symbolOperators: [String: PredicateOperator] = [
        "==": .equal, "=": .equal, "!=": .notEqual, "<>": .notEqual, "<": .less, "<=": .lessOrEqual,
        "=<": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual, "=>": .greaterOrEqual,
    ]

    private mutating func parseOperator() throws(FetchPredicateError) -> PredicateOperator {
        let token = current
        switch token.kind {
        case .symbol(let symbol):
            guard let operation = Self.symbolOperators[symbol] else {
                throw .unknownOperator(offset: token.offset, text: token.text)
            }
            advance()
            return operation
        case .identifier(let word, escaped: false):
            if word.uppercased() == "UTI", index + 1 < tokens.count, tokens[index + 1].kind == .symbol("-") {
                // `UTI-CONFORMS-TO`, `UTI-EQUALS`.
                throw .unsupportedOperator(
                    offset: token.offset, text: "UTI-…",
                    reason: "Uniform Type Identifier operators need Apple's type database, which Linux does not have")
            }
            guard let operation = PredicateOperator(rawValue: token.keyword ?? word),
                operation.rawValue.first?.isLetter == true
            else {
                throw .unknownOperator(offset: token.offset, text: token.text)
            }
            advance()
            return operation
        case .identifier, .string, .integer, .double, .variable, .specifier:
            throw .unknownOperator(offset: token.offset, text: token.text)
        case .end, .punctuation, .aggregate:
            throw .syntax(offset: token.offset, found: token.quoted, expected: "a comparison operator")
        }
    }

    /// `[c]`, `[d]`, `[cd]` (letters in any order, any case) after an operator.
    private mutating func parseOptions() throws(FetchPredicateError) -> PredicateComparisonOptions {
        guard current.isPunctuation("[") else { return [] }
        advance()
        let token = advance()
        guard case .identifier(let letters, escaped: false) = token.kind else {
            throw .syntax(offset: token.offset, found: token.quoted, expected: "comparison options c, d or cd")
        }
        var options = PredicateComparisonOptions()
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default: throw .unknownOption(offset: token.offset, text: letters)
            }
        }
        try expectPunctuation("]", after: "after comparison options")
        return options
    }

    /// Checks at parse time what the right operand of `operation` must be, when
    /// it is a constant: a pair for BETWEEN, a collection or string for IN, a
    /// valid regular expression for MATCHES.
    private func validate(_ operation: PredicateOperator, right: FetchExpression, at token: PredicateToken) throws(FetchPredicateError) {
        switch (operation, right) {
        case (.between, .value(.array(let values))) where values.count == 2:
            return
        case (.between, .list(let expressions)) where expressions.count == 2:
            return
        case (.between, .keyPath):
            return
        case (.between, _):
            throw .invalidOperand(offset: token.offset, operator: "BETWEEN", expected: "{lower, upper}")
        case (.in, .value(let value)):
            switch value {
            case .array, .string, .null: return
            default: throw .invalidOperand(offset: token.offset, operator: "IN", expected: "a collection or a string")
            }
        case (.matches, .value(.string(let pattern))):
            guard PredicateText.isValidRegularExpression(pattern) else {
                throw .invalidRegularExpression(offset: token.offset, pattern: pattern)
            }
        default:
            return
        }
    }
}
