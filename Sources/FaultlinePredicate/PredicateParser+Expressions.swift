import Foundation

/// The expression level of the parser: literals, key paths, arguments,
/// variables, `{…}` lists, SUBQUERY, CAST and the `.key`/`.@aggregate` suffixes.
extension PredicateParser {
    /// One operand of a comparison. `context` completes "expected …" in errors
    /// ("a value after '=='").
    mutating func parseExpression(context: @autoclosure () -> String) throws(FetchPredicateError) -> FetchExpression {
        let token = current
        switch token.kind {
        case .string(let text):
            advance()
            return .value(.string(text))
        case .integer(let value):
            advance()
            return .value(.int(value))
        case .double(let value):
            advance()
            return .value(.double(value))
        case .variable(let name):
            advance()
            return try parseSuffixes(of: .keyPath(PredicateKeyPath(variable: name, [])))
        case .specifier(let specifier):
            advance()
            return try parseSuffixes(of: try argumentExpression(specifier: specifier, at: token))
        case .identifier(let name, escaped: true):
            advance()
            return try parseSuffixes(of: .keyPath(PredicateKeyPath([name])))
        case .identifier(let name, escaped: false):
            return try parseWord(name, token: token, context: context)
        case .punctuation("{"):
            return try parseSuffixes(of: try parseList())
        default:
            throw .syntax(offset: token.offset, found: token.quoted, expected: context())
        }
    }

    private mutating func parseWord(_ name: String, token: PredicateToken, context: () -> String) throws(FetchPredicateError) -> FetchExpression {
        switch token.keyword ?? name {
        case "TRUE", "YES":
            advance()
            return .value(.bool(true))
        case "FALSE", "NO":
            advance()
            return .value(.bool(false))
        case "NIL", "NULL":
            advance()
            return .value(.null)
        case "SELF":
            advance()
            return try parseSuffixes(of: .keyPath(PredicateKeyPath([])))
        case "SUBQUERY":
            return try parseSuffixes(of: try parseSubquery())
        case "CAST":
            return try parseCast()
        case "TERNARY" where nextIsOpenParenthesis:
            return try parseTernary()
        case "FUNCTION" where nextIsOpenParenthesis:
            throw .unsupportedFunction(offset: token.offset, name: "FUNCTION", reason: PredicateFunction.refused["FUNCTION"])
        case _ where name.contains(":") || (nextIsOpenParenthesis && !PredicateKeywords.isReserved(name)):
            return try parseSuffixes(of: try parseFunctionCall(name, token: token))
        case let word where ["FIRST", "LAST", "SIZE", "ANYKEY", "FETCH", "CASEINSENSITIVE", "CI"].contains(word):
            throw .reservedWord(offset: token.offset, word: name)
        case let word where PredicateKeywords.isReserved(word):
            throw .syntax(offset: token.offset, found: token.quoted, expected: context())
        default:
            advance()
            return try parseSuffixes(of: .keyPath(PredicateKeyPath([name])))
        }
    }

    /// The index of a `[FIRST]`, `[LAST]` (-1), `[n]` suffix at the current
    /// token, `.some(nil)` for `[SIZE]`; nil when the current token starts none.
    private var indexAhead: Int64?? {
        guard current.isPunctuation("["), index + 2 < tokens.count, tokens[index + 2].isPunctuation("]") else { return nil }
        let inside = tokens[index + 1]
        switch inside.kind {
        case .integer(let value) where value >= 0: return .some(value)
        case .identifier(let word, escaped: false):
            switch word.uppercased() {
            case "FIRST": return .some(0)
            case "LAST": return .some(-1)
            case "SIZE": return .some(nil)
            default: return nil
            }
        default: return nil
        }
    }

    /// Key-value coding's collection operators that yield the collection of a key's values.
    static let unionOperators: Set<String> = [
        "unionofobjects", "distinctunionofobjects", "unionofsets", "distinctunionofsets", "unionofarrays", "distinctunionofarrays",
    ]

    /// Whether the token after the current one is `(`: a function call.
    private var nextIsOpenParenthesis: Bool {
        index + 1 < tokens.count && tokens[index + 1].isPunctuation("(")
    }

    /// `.key` and `.@aggregate[.key…]` after a key path, variable or subquery.
    /// Keys gather in `keys` and join the expression once per run: appending
    /// to the expression's own array would copy it per key, making a path of
    /// n keys cost n² to parse.
    private mutating func parseSuffixes(of base: FetchExpression) throws(FetchPredicateError) -> FetchExpression {
        var expression = base
        var keys: [String] = []
        while current.isPunctuation(".") || (indexAhead != nil && expression.appending(keys).isCollection) {
            if let position = indexAhead {
                // `[FIRST]`, `[LAST]`, `[SIZE]`, `[n]` after a collection.
                let open = advance()
                advance()
                advance()
                try enter()
                defer { leave() }
                let collection = expression.appending(keys)
                keys = []
                guard let index = position else {
                    expression = .aggregate(.count, of: collection, keyPath: [])
                    continue
                }
                guard current.kind == .end || !current.isPunctuation(".") else {
                    throw .syntax(offset: open.offset, found: "'['", expected: "no key path after an element of a collection")
                }
                expression = .function(.element, [collection, .value(.int(index))])
                continue
            }
            let dot = advance()
            let token = advance()
            switch token.kind {
            case .identifier(let name, escaped: false) where name == "count" && !expression.takesKeys && expression.isCollection:
                // `SUBQUERY(…).count`: the collection's count, as key-value coding reads it.
                expression = .aggregate(.count, of: expression.appending(keys), keyPath: [])
                keys = []
            case .identifier(let name, let escaped) where escaped || !PredicateKeywords.isReserved(name):
                guard expression.takesKeys else {
                    throw .syntax(offset: dot.offset, found: "'.'", expected: "the end of the key path after \(expression)")
                }
                keys.append(name)
            case .identifier(let name, _):
                throw .reservedWord(offset: token.offset, word: name)
            case .specifier("K"):
                // `%K.%K`: each argument a key path of its own, joined.
                guard expression.takesKeys else {
                    throw .syntax(offset: dot.offset, found: "'.'", expected: "the end of the key path after \(expression)")
                }
                if case .keyPath(let path) = try argumentExpression(specifier: "K", at: token) { keys += path.components }
            case .aggregate(let name) where expression.isCollection && Self.unionOperators.contains(name.lowercased()):
                // `items.@distinctUnionOfObjects.name`: the names over the
                // to-many — what ANY/ALL/NONE, IN and CONTAINS compare, which
                // duplicates do not change — so the key path `items.name`.
                guard current.isPunctuation("."), case .identifier(let key, _) = tokens[min(index + 1, tokens.count - 1)].kind else {
                    throw .syntax(offset: token.offset, found: token.quoted, expected: "a key after @\(name)")
                }
                advance()
                advance()
                keys.append(key)
            case .aggregate(let name) where expression.isCollection:
                guard let aggregate = PredicateAggregate(rawValue: "@" + name.lowercased()) else {
                    throw .syntax(offset: token.offset, found: token.quoted, expected: "@count, @sum, @avg, @min or @max")
                }
                expression = .aggregate(aggregate, of: expression.appending(keys), keyPath: [])
                keys = []
            default:
                throw .syntax(offset: token.offset, found: token.quoted, expected: "a key or an aggregate after '.'")
            }
        }
        return expression.appending(keys)
    }

    /// `{a, b, …}`; a list of constants becomes one array value.
    private mutating func parseList() throws(FetchPredicateError) -> FetchExpression {
        try enter()
        defer { leave() }
        let open = advance()
        var elements: [FetchExpression] = []
        if !current.isPunctuation("}") {
            while true {
                elements.append(try parseArithmetic(context: "a value in the list opened at offset \(open.offset)"))
                guard current.isPunctuation(",") else { break }
                advance()
            }
        }
        try expectPunctuation("}", after: "to close the list opened at offset \(open.offset)")
        return FetchExpression.list(elements).foldingConstants()
    }

    /// `SUBQUERY(collection, $variable, predicate)`.
    private mutating func parseSubquery() throws(FetchPredicateError) -> FetchExpression {
        try enter()
        defer { leave() }
        advance()
        try expectPunctuation("(", after: "after SUBQUERY")
        let collectionToken = current
        let collection = try parseExpression(context: "a collection key path in SUBQUERY")
        guard collection.canBeQuantified else {
            throw .syntax(offset: collectionToken.offset, found: collectionToken.quoted, expected: "a collection key path in SUBQUERY")
        }
        try expectPunctuation(",", after: "after the SUBQUERY collection")
        guard case .variable(let variable) = current.kind else {
            throw .syntax(offset: current.offset, found: current.quoted, expected: "a $variable in SUBQUERY")
        }
        advance()
        try expectPunctuation(",", after: "after the SUBQUERY variable")
        let predicate = try parseOr()
        try expectPunctuation(")", after: "to close SUBQUERY")
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }
}
