import FaultlinePredicate

/// A computed column of a dictionary fetch: Core Data's
/// `NSExpressionDescription`. With `propertiesToGroupBy`, an aggregate of an
/// attribute (`sum:(price)`, `count:(title)`, `average:(views)`, `min:`,
/// `max:`, or `@sum` and friends written on the key path) is computed over
/// each group's rows in SQL; without grouping, over all matching rows (one
/// row comes back). Arithmetic may combine aggregates (`sum:(price) * 2`).
public struct ExpressionDescription: Sendable, Hashable {
    /// The key of the value in each result dictionary, and the name a
    /// `havingPredicate` uses for it.
    public var name: String
    public var expression: FetchExpression
    /// How the value is read back (`.doubleAttributeType` for an average);
    /// by default, as Core Data's, undefined: the value as SQLite holds it
    /// (an integer for a count or a sum of integers, a double for an average).
    public var resultType: AttributeType

    public init(name: String, expression: FetchExpression, resultType: AttributeType = .undefinedAttributeType) {
        self.name = name
        self.expression = expression
        self.resultType = resultType
    }

    /// The expression parsed from `format` (`"sum:(price)"`); throws `FetchPredicateError`.
    public init(name: String, format: String, resultType: AttributeType = .undefinedAttributeType) throws {
        self.init(name: name, expression: try FetchExpression(format: format), resultType: resultType)
    }
}
