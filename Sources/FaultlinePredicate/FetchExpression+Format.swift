extension FetchExpression {
    /// Parses one expression in the predicate format's syntax — a key path,
    /// an aggregate (`sum:(price)`, `books.@count`), arithmetic, a function —
    /// as `NSExpression(format:)` does; throws `FetchPredicateError`.
    public init(format: String, arguments: [PredicateValue] = []) throws(FetchPredicateError) {
        var parser = try PredicateParser(format: format, arguments: arguments)
        self = try parser.parseWholeExpression()
    }
}
