// A recursive-descent parser for derivation expressions.
//
// Grammar (whitespace allowed between tokens):
//   expression := "now" "(" ")"
//               | ("canonical" | "lowercase" | "uppercase") ":" "(" keyPath ")"
//               | "@" function "." name ("." name)?        -- @sum.articles.views, @count.articles
//               | keyPath ("." "@" function ("." name)?)?  -- articles.@count, articles.@sum.views
//   keyPath    := name ("." name)*
//   name       := [A-Za-z_][A-Za-z0-9_]*
//   function   := count | sum | min | max | avg
// An aggregate applies to a single relationship name; `@count` takes no attribute,
// the others require one.

struct DerivationExpressionParser {
    private enum Token: Equatable {
        case name(String)
        case aggregate(String)
        case dot, colon, openParen, closeParen
        case end
        case invalid(Character)

        var spelling: String {
            switch self {
            case .name(let n): "name '\(n)'"
            case .aggregate(let f): "'@\(f)'"
            case .dot: "'.'"
            case .colon: "':'"
            case .openParen: "'('"
            case .closeParen: "')'"
            case .end: "end of input"
            case .invalid(let c): "'\(c)'"
            }
        }
    }

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var current: Token = .end
    private var currentOffset = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        advance()
    }

    mutating func parseExpression() throws(DerivationParseError) -> DerivationExpression {
        let expression: DerivationExpression
        switch current {
        case .aggregate(let function):
            expression = try parsePrefixAggregate(function)
        case .name:
            expression = try parseNameLed()
        default:
            throw failure(expected: "a key path, '@aggregate', now() or a function")
        }
        guard current == .end else { throw failure(expected: "end of input") }
        return expression
    }

    // MARK: - Productions

    private mutating func parsePrefixAggregate(_ spelling: String) throws(DerivationParseError) -> DerivationExpression {
        let function = try aggregateFunction(spelling)
        advance()
        try expect(.dot)
        let relationship = try expectName()
        var attribute: String?
        if function != .count {
            try expect(.dot)
            attribute = try expectName()
        }
        return .aggregate(function: function, relationship: relationship, attribute: attribute)
    }

    private mutating func parseNameLed() throws(DerivationParseError) -> DerivationExpression {
        guard case .name(let first) = current else { throw failure(expected: "a name") }
        let firstOffset = currentOffset
        advance()
        switch (first, current) {
        case ("now", .openParen):
            advance()
            try expect(.closeParen)
            return .now
        case ("canonical", .colon), ("lowercase", .colon), ("uppercase", .colon):
            advance()
            try expect(.openParen)
            let path = try parseKeyPath()
            try expect(.closeParen)
            switch first {
            case "canonical": return .canonical(path)
            case "lowercase": return .lowercase(path)
            default: return .uppercase(path)
            }
        default:
            break
        }
        var path = [first]
        while current == .dot {
            advance()
            switch current {
            case .name(let next):
                path.append(next)
                advance()
            case .aggregate(let spelling):
                guard path.count == 1 else {
                    throw DerivationParseError(
                        offset: firstOffset,
                        expected: "a single relationship name before '@\(spelling)'",
                        found: "key path '\(path.joined(separator: "."))'")
                }
                return try parseSuffixAggregate(spelling, relationship: first)
            default:
                throw failure(expected: "a name or '@aggregate' after '.'")
            }
        }
        return .keyPath(path)
    }

    private mutating func parseSuffixAggregate(_ spelling: String, relationship: String) throws(DerivationParseError) -> DerivationExpression {
        let function = try aggregateFunction(spelling)
        advance()
        var attribute: String?
        if function != .count {
            try expect(.dot)
            attribute = try expectName()
        }
        return .aggregate(function: function, relationship: relationship, attribute: attribute)
    }

    private mutating func parseKeyPath() throws(DerivationParseError) -> [String] {
        var path = [try expectName()]
        while current == .dot {
            advance()
            path.append(try expectName())
        }
        return path
    }

    // MARK: - Token helpers

    private func aggregateFunction(_ spelling: String) throws(DerivationParseError) -> AggregateFunction {
        guard let function = AggregateFunction(rawValue: spelling) else {
            throw failure(expected: "an aggregate function (@count, @sum, @min, @max, @avg)")
        }
        return function
    }

    private mutating func expect(_ token: Token) throws(DerivationParseError) {
        guard current == token else { throw failure(expected: token.spelling) }
        advance()
    }

    private mutating func expectName() throws(DerivationParseError) -> String {
        guard case .name(let name) = current else { throw failure(expected: "a name") }
        advance()
        return name
    }

    private func failure(expected: String) -> DerivationParseError {
        DerivationParseError(offset: currentOffset, expected: expected, found: current.spelling)
    }

    // MARK: - Lexer

    private mutating func advance() {
        while position < scalars.count, scalars[position].properties.isWhitespace {
            position += 1
        }
        currentOffset = position
        guard position < scalars.count else {
            current = .end
            return
        }
        let scalar = scalars[position]
        position += 1
        switch scalar {
        case ".": current = .dot
        case ":": current = .colon
        case "(": current = .openParen
        case ")": current = .closeParen
        case "@": current = .aggregate(readName())
        default:
            if Self.isNameStart(scalar) {
                position -= 1
                current = .name(readName())
            } else {
                current = .invalid(Character(scalar))
            }
        }
    }

    private mutating func readName() -> String {
        var name = ""
        while position < scalars.count, Self.isNameContinuation(scalars[position]) {
            name.unicodeScalars.append(scalars[position])
            position += 1
        }
        return name
    }

    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    static func isNameContinuation(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || ("0"..."9").contains(scalar)
    }
}
