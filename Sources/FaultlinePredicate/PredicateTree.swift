/// A predicate's syntax tree: what `FetchPredicate` holds, what the evaluator
/// walks and what the SQL compiler will translate.
///
/// `and` and `or` are n-ary and hold at least two terms when built by the
/// parser; `a AND b AND c` is one node with three terms, while
/// `(a AND b) AND c` keeps its parentheses as a nested node, so the tree's depth
/// is bounded by the format string's nesting, never by its length.
public indirect enum PredicateNode: Hashable, Sendable {
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)
    case not(PredicateNode)
    case and([PredicateNode])
    case or([PredicateNode])
    case comparison(PredicateComparison)
}

/// `[modifier] left operator[options] right`.
public struct PredicateComparison: Hashable, Sendable {
    /// `ANY`, `ALL`, `NONE` or none: how a to-many left side is quantified.
    public var modifier: PredicateModifier
    public var left: FetchExpression
    public var operation: PredicateOperator
    public var options: PredicateComparisonOptions
    public var right: FetchExpression

    public init(
        modifier: PredicateModifier = .direct,
        _ left: FetchExpression,
        _ operation: PredicateOperator,
        options: PredicateComparisonOptions = [],
        _ right: FetchExpression
    ) {
        self.modifier = modifier
        self.left = left
        self.operation = operation
        self.options = options
        self.right = right
    }
}

/// How a comparison treats a left side that is a collection.
public enum PredicateModifier: String, Hashable, Sendable {
    /// No modifier: the left side is compared as one value.
    case direct = ""
    /// `ANY` (or `SOME`): at least one element satisfies the comparison.
    case any = "ANY"
    /// `ALL`: every element satisfies it (true for an empty collection).
    case all = "ALL"
    /// `NONE`: no element satisfies it; the same as `NOT (ANY …)`.
    case none = "NONE"
}

/// A comparison operator, spelled as the canonical format string spells it.
public enum PredicateOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// Inclusive at both ends: `BETWEEN {lower, upper}`.
    case between = "BETWEEN"
    /// Membership in a collection, or a substring of a string.
    case `in` = "IN"
    /// A substring of a string, or membership when the left side is a collection.
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    /// `*` matches any run of characters, `?` exactly one; the whole string must match.
    case like = "LIKE"
    /// An ICU regular expression matching the whole string.
    case matches = "MATCHES"
}

/// The `[c]`, `[d]` and `[cd]` options of a comparison.
public struct PredicateComparisonOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `[c]`: letters compare regardless of case.
    public static let caseInsensitive = PredicateComparisonOptions(rawValue: 1)
    /// `[d]`: letters compare regardless of diacritics.
    public static let diacriticInsensitive = PredicateComparisonOptions(rawValue: 2)
}

/// A value inside a comparison.
public indirect enum FetchExpression: Hashable, Sendable {
    /// A literal, an argument or a substituted variable.
    case value(PredicateValue)
    /// A key path from the evaluated object or from a variable.
    case keyPath(PredicateKeyPath)
    /// `{a, b, …}` holding at least one non-constant element (a list of
    /// constants is `.value(.array(…))`).
    case list([FetchExpression])
    /// `collection.@count`, or `collection.@sum.keyPath` and the like, where
    /// `keyPath` is read from each element before aggregating (empty for @count).
    case aggregate(PredicateAggregate, of: FetchExpression, keyPath: [String])
    /// `SUBQUERY(collection, $variable, predicate)`: the elements of `collection`
    /// for which `predicate` holds with `$variable` bound to the element.
    case subquery(collection: FetchExpression, variable: String, predicate: PredicateNode)
    /// A function applied to its arguments, arithmetic and bitwise operators
    /// included (`PredicateFunction`).
    case function(PredicateFunction, [FetchExpression])
    /// `TERNARY(predicate, a, b)`: `a` where the predicate holds, else `b`.
    case conditional(PredicateNode, FetchExpression, FetchExpression)
}

/// `a.b.c`, `SELF`, `$v` or `$v.a.b`.
public struct PredicateKeyPath: Hashable, Sendable {
    /// The variable the path starts from, without its `$`; nil starts from the
    /// evaluated object (`SELF`).
    public var variable: String?
    /// The keys followed in order; empty means the start itself.
    public var components: [String]

    public init(variable: String? = nil, _ components: [String]) {
        self.variable = variable
        self.components = components
    }
}

/// The aggregate functions of the key path syntax.
public enum PredicateAggregate: String, Hashable, Sendable, CaseIterable {
    /// The number of elements; 0 for an empty collection.
    case count = "@count"
    /// The sum of the elements' numbers; 0 for an empty collection.
    case sum = "@sum"
    /// The mean; nil for an empty collection.
    case avg = "@avg"
    /// The smallest element; nil for an empty collection.
    case min = "@min"
    /// The largest element; nil for an empty collection.
    case max = "@max"
}

extension FetchExpression {
    /// Whether `ANY`/`ALL`/`NONE` may quantify this expression: a key path or a subquery.
    var canBeQuantified: Bool {
        switch self {
        case .keyPath, .subquery: true
        case .value, .list, .aggregate, .function, .conditional: false
        }
    }
}

extension FetchExpression {
    /// Whether it may be a collection: what `[FIRST]` and `.@count` apply to
    /// (a key path, a SUBQUERY, a `{…}` list or an array constant).
    var isCollection: Bool {
        switch self {
        case .keyPath, .subquery, .list, .value(.array): true
        default: false
        }
    }

    /// Whether `.key` may follow: a key path, or an aggregate other than @count.
    var takesKeys: Bool {
        switch self {
        case .keyPath: true
        case .aggregate(let aggregate, _, _): aggregate != .count
        case .value, .list, .subquery, .function, .conditional: false
        }
    }

    /// The expression with `keys` appended to its key path (`takesKeys`).
    func appending(_ keys: [String]) -> FetchExpression {
        guard !keys.isEmpty else { return self }
        switch self {
        case .keyPath(let path): return .keyPath(PredicateKeyPath(variable: path.variable, path.components + keys))
        case .aggregate(let aggregate, let collection, let keyPath): return .aggregate(aggregate, of: collection, keyPath: keyPath + keys)
        case .value, .list, .subquery, .function, .conditional: return self
        }
    }

    /// A list whose elements are all constants, as one array constant.
    func foldingConstants() -> FetchExpression {
        guard case .list(let elements) = self else { return self }
        var values: [PredicateValue] = []
        for element in elements {
            guard case .value(let value) = element else { return self }
            values.append(value)
        }
        return .value(.array(values))
    }
}
