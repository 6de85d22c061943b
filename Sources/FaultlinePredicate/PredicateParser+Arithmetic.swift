/// The arithmetic level of the parser: operators between operands, lowest
/// precedence first — `|`, `^`, `&`, `<<` `>>`, `+` `-`, `*` `/`, `**`
/// (right-associative), unary `-` and `~` — then parenthesised expressions
/// and function calls (`lowercase:(name)`, `now()`, `sum:(items.price)`).
/// Each operator becomes the `PredicateFunction` Foundation names it by.
extension PredicateParser {
    /// The binary operators by their symbol (`PredicateFunction.precedence`).
    private static let binary: [String: (precedence: Int, function: PredicateFunction)] = Dictionary(
        uniqueKeysWithValues: PredicateFunction.allCases.compactMap { function in
            guard let symbol = function.infix, let precedence = function.precedence else { return nil }
            return (symbol, (precedence, function))
        })

    /// An operand with any operators between its terms: precedence climbing,
    /// with prefix operators taken in a loop, so a nested construct costs
    /// this frame and `parseExpression`'s (the nesting tests run the parser
    /// at the depth limit on a 512 KB stack).
    mutating func parseArithmetic(context: @autoclosure () -> String, minimum: Int = 1) throws(FetchPredicateError) -> FetchExpression {
        // Each operator nests the tree one level deeper: counted, so a chain
        // cannot build a tree deeper than `PredicateDepth.limit`.
        var nested = 0
        defer { for _ in 0..<nested { leave() } }
        var prefixes: [PredicateFunction] = []
        while case .symbol(let symbol) = current.kind, symbol == "-" || symbol == "+" || symbol == "~" {
            advance()
            guard symbol != "+" else { continue }
            try enter()
            nested += 1
            prefixes.append(symbol == "-" ? .subtract : .onesComplement)
        }
        var left: FetchExpression
        if current.isPunctuation("(") {
            try enter()
            let open = advance()
            defer { leave() }
            left = try parseArithmetic(context: "a value after '('")
            guard current.isPunctuation(")") else {
                if current.kind == .end { throw .unbalancedParenthesis(offset: open.offset) }
                throw .syntax(offset: current.offset, found: current.quoted, expected: "an operator or ')'")
            }
            advance()
        } else {
            left = try parseExpression(context: prefixes.isEmpty ? context() : "a value after a sign")
        }
        // `-a ** 2` is `-(a ** 2)`: a power binds tighter than a sign.
        if !prefixes.isEmpty, current.kind == .symbol("**") {
            try enter()
            nested += 1
            advance()
            left = .function(.power, [left, try parseArithmetic(context: "a value after '**'", minimum: 7)])
        }
        for prefix in prefixes.reversed() {
            left = prefix == .subtract ? .function(.subtract, [.value(.int(0)), left]) : .function(.onesComplement, [left])
        }
        while true {
            // `a -1`: the lexer read "-1" as a number; after an operand it is a subtraction.
            if minimum <= 5 { splitNegativeLiteral() }
            guard case .symbol(let symbol) = current.kind, let (precedence, function) = Self.binary[symbol],
                  precedence >= minimum else { return left }
            try enter()
            nested += 1
            advance()
            // `**` is right-associative; the others left.
            let right = try parseArithmetic(context: "a value after '\(symbol)'", minimum: function == .power ? precedence : precedence + 1)
            left = .function(function, [left, right])
        }
    }

    /// `name(arguments…)` where `name` is the current identifier.
    mutating func parseFunctionCall(_ name: String, token: PredicateToken) throws(FetchPredicateError) -> FetchExpression {
        let function = PredicateFunction(rawValue: name) ?? PredicateFunction(rawValue: name.lowercased())
        let aggregate = PredicateFunction.aggregates[name]
        guard function != nil || aggregate != nil else {
            throw .unsupportedFunction(offset: token.offset, name: name, reason: PredicateFunction.refused[name])
        }
        try enter()
        defer { leave() }
        advance()
        try expectPunctuation("(", after: "after the function \(name)")
        var arguments: [FetchExpression] = []
        let first = current
        if !current.isPunctuation(")") {
            while true {
                arguments.append(try parseArithmetic(context: "an argument of \(name)"))
                guard current.isPunctuation(",") else { break }
                advance()
            }
        }
        try expectPunctuation(")", after: "to close the arguments of \(name)")
        if let aggregate {
            guard arguments.count == 1 else { throw .functionArity(function: name, expected: 1, found: arguments.count) }
            // The collection is a to-many key path or a SUBQUERY, as for `@sum`.
            guard arguments[0].canBeQuantified else {
                throw .syntax(offset: first.offset, found: first.quoted, expected: "a to-many key path or SUBQUERY in \(name)")
            }
            return .aggregate(aggregate, of: arguments[0], keyPath: [])
        }
        guard let function else { throw .unsupportedFunction(offset: token.offset, name: name, reason: nil) }
        guard arguments.count == function.arity else {
            throw .functionArity(function: name, expected: function.arity, found: arguments.count)
        }
        return .function(function, arguments)
    }
}

extension PredicateParser {
    /// `TERNARY(predicate, value if it holds, value otherwise)`.
    mutating func parseTernary() throws(FetchPredicateError) -> FetchExpression {
        try enter()
        defer { leave() }
        advance()
        try expectPunctuation("(", after: "after TERNARY")
        let condition = try parseOr()
        try expectPunctuation(",", after: "after the TERNARY predicate")
        let then = try parseArithmetic(context: "the TERNARY value where the predicate holds")
        try expectPunctuation(",", after: "after the TERNARY value where the predicate holds")
        let otherwise = try parseArithmetic(context: "the TERNARY value where it does not")
        try expectPunctuation(")", after: "to close TERNARY")
        return .conditional(condition, then, otherwise)
    }
}

extension PredicateParser {
    /// One whole expression, nothing after it (`FetchExpression(format:)`).
    mutating func parseWholeExpression() throws(FetchPredicateError) -> FetchExpression {
        let expression = try parseArithmetic(context: "an expression")
        guard current.kind == .end else {
            throw .syntax(offset: current.offset, found: current.quoted, expected: "an operator or the end of the expression")
        }
        return expression
    }
}
