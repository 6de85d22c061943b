import FaultlinePredicate

// Typed predicates: the generated (or hand-written) typed keys build the same
// predicate tree the format-string parser builds, so one compiler and one
// evaluator serve both, and a user moves off strings one predicate at a time.
//
//     Article.title == "x" && Article.views > 10
//     Article.category.name.beginsWith("S", options: .caseInsensitive)
//
// The compiler checks the value's type against the key's (`Article.views ==
// "x"` does not compile). A to-one's members are its destination's keys
// (`Article.category.name`, through metatype key paths), to any depth.

/// What the left side of a typed comparison reads, of type `Value`: a key
/// path of typed keys from an entity, a quantified path through a to-many
/// (`ANY`, `ALL`, `NONE`) or an aggregate of one (`@count`, `@sum`, …).
public protocol TypedValuePath {
    associatedtype Value
    /// The expression as the format-string parser builds it.
    var predicateExpression: FetchExpression { get }
    /// `ANY`, `ALL` or `NONE` for a path through a to-many; `.direct` otherwise.
    var predicateModifier: PredicateModifier { get }
}

extension TypedValuePath {
    public var predicateModifier: PredicateModifier { .direct }
}

extension AttributeKey: TypedValuePath {
    /// A composite element's key (`address.city`) is a key path, as the parser reads it.
    public var predicateKeys: [String] { slot.name.split(separator: ".").map(String.init) }
    public var predicateExpression: FetchExpression { .keyPath(PredicateKeyPath(predicateKeys)) }
}

/// An attribute reached through to-ones: `Article.category.name`.
public struct TypedKeyPath<Value>: TypedValuePath, Sendable {
    public let predicateKeys: [String]
    public var predicateExpression: FetchExpression { .keyPath(PredicateKeyPath(predicateKeys)) }
}

/// A to-one reached through to-ones: `Article.category.parent`.
@dynamicMemberLookup
public struct TypedToOnePath<Destination: ManagedObject>: Sendable {
    let keys: [String]

    public subscript<Value>(dynamicMember member: KeyPath<Destination.Type, AttributeKey<Value>>) -> TypedKeyPath<Value> {
        TypedKeyPath(predicateKeys: keys + [Destination.self[keyPath: member].slot.name])
    }

    public subscript<Next>(dynamicMember member: KeyPath<Destination.Type, ToOneKey<Next>>) -> TypedToOnePath<Next> {
        TypedToOnePath<Next>(keys: keys + [Destination.self[keyPath: member].slot.name])
    }

    public subscript<Next>(dynamicMember member: KeyPath<Destination.Type, ToManyKey<Next>>) -> TypedToManyPath<Next> {
        TypedToManyPath<Next>(toManyKeys: keys + [Destination.self[keyPath: member].slot.name])
    }
}

extension ToOneKey {
    public subscript<Value>(dynamicMember member: KeyPath<Destination.Type, AttributeKey<Value>>) -> TypedKeyPath<Value> {
        TypedKeyPath(predicateKeys: [slot.name, Destination.self[keyPath: member].slot.name])
    }

    public subscript<Next>(dynamicMember member: KeyPath<Destination.Type, ToOneKey<Next>>) -> TypedToOnePath<Next> {
        TypedToOnePath<Next>(keys: [slot.name, Destination.self[keyPath: member].slot.name])
    }

    public subscript<Next>(dynamicMember member: KeyPath<Destination.Type, ToManyKey<Next>>) -> TypedToManyPath<Next> {
        TypedToManyPath<Next>(toManyKeys: [slot.name, Destination.self[keyPath: member].slot.name])
    }
}

extension FetchPredicate {
    /// `left op right` with `right` a constant.
    static func typed(_ left: some TypedValuePath, _ operation: PredicateOperator, _ value: PredicateValue,
                      options: PredicateComparisonOptions = []) -> FetchPredicate {
        FetchPredicate(.comparison(PredicateComparison(
            modifier: left.predicateModifier, left.predicateExpression, operation, options: options, .value(value))))
    }

    /// `left op right`, both read from the object.
    static func typed(_ left: some TypedValuePath, _ operation: PredicateOperator, _ right: some TypedValuePath) -> FetchPredicate {
        FetchPredicate(.comparison(PredicateComparison(
            modifier: left.predicateModifier, left.predicateExpression, operation, right.predicateExpression)))
    }

    /// A constant as the predicate holds it; nil is `nil`. Every type a typed
    /// key carries converts (an integer beyond `Int64` cannot be a key's value).
    static func constant<Wrapped: PredicateValueConvertible>(_ value: Wrapped?) -> PredicateValue {
        guard let value else { return .null }
        return (try? value.predicateValue()) ?? .null
    }

    public static func && (left: FetchPredicate, right: FetchPredicate) -> FetchPredicate {
        FetchPredicate(.and(left.root.conjuncts + right.root.conjuncts))
    }

    public static func || (left: FetchPredicate, right: FetchPredicate) -> FetchPredicate {
        FetchPredicate(.or(left.root.disjuncts + right.root.disjuncts))
    }

    public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate {
        FetchPredicate(.not(predicate.root))
    }
}

extension PredicateNode {
    /// The terms an AND joins (itself when it is not an AND), so `a && b && c` is one node, as the parser builds it.
    fileprivate var conjuncts: [PredicateNode] {
        if case .and(let terms) = self { return terms }
        return [self]
    }

    fileprivate var disjuncts: [PredicateNode] {
        if case .or(let terms) = self { return terms }
        return [self]
    }
}

// MARK: Comparisons with a constant

public func == <Path: TypedValuePath, Wrapped: PredicateValueConvertible>(key: Path, value: Wrapped?) -> FetchPredicate
where Path.Value == Wrapped? { .typed(key, .equal, FetchPredicate.constant(value)) }

public func != <Path: TypedValuePath, Wrapped: PredicateValueConvertible>(key: Path, value: Wrapped?) -> FetchPredicate
where Path.Value == Wrapped? { .typed(key, .notEqual, FetchPredicate.constant(value)) }

public func < <Path: TypedValuePath, Wrapped: PredicateValueConvertible & Comparable>(key: Path, value: Wrapped) -> FetchPredicate
where Path.Value == Wrapped? { .typed(key, .less, FetchPredicate.constant(value)) }

public func <= <Path: TypedValuePath, Wrapped: PredicateValueConvertible & Comparable>(key: Path, value: Wrapped) -> FetchPredicate
where Path.Value == Wrapped? { .typed(key, .lessOrEqual, FetchPredicate.constant(value)) }

public func > <Path: TypedValuePath, Wrapped: PredicateValueConvertible & Comparable>(key: Path, value: Wrapped) -> FetchPredicate
where Path.Value == Wrapped? { .typed(key, .greater, FetchPredicate.constant(value)) }

public func >= <Path: TypedValuePath, Wrapped: PredicateValueConvertible & Comparable>(key: Path, value: Wrapped) -> FetchPredicate
where Path.Value == Wrapped? { .typed(key, .greaterOrEqual, FetchPredicate.constant(value)) }

// MARK: Comparisons of two keys of one type

public func == <Left: TypedValuePath, Right: TypedValuePath>(left: Left, right: Right) -> FetchPredicate
where Left.Value == Right.Value { .typed(left, .equal, right) }

public func != <Left: TypedValuePath, Right: TypedValuePath>(left: Left, right: Right) -> FetchPredicate
where Left.Value == Right.Value { .typed(left, .notEqual, right) }

public func < <Left: TypedValuePath, Right: TypedValuePath>(left: Left, right: Right) -> FetchPredicate
where Left.Value == Right.Value { .typed(left, .less, right) }

public func > <Left: TypedValuePath, Right: TypedValuePath>(left: Left, right: Right) -> FetchPredicate
where Left.Value == Right.Value { .typed(left, .greater, right) }

// MARK: Strings, membership, ranges

extension TypedValuePath where Value == String? {
    public func beginsWith(_ prefix: String, options: PredicateComparisonOptions = []) -> FetchPredicate {
        .typed(self, .beginsWith, .string(prefix), options: options)
    }

    public func endsWith(_ suffix: String, options: PredicateComparisonOptions = []) -> FetchPredicate {
        .typed(self, .endsWith, .string(suffix), options: options)
    }

    public func contains(_ text: String, options: PredicateComparisonOptions = []) -> FetchPredicate {
        .typed(self, .contains, .string(text), options: options)
    }

    /// `*` any run of characters, `?` one.
    public func like(_ pattern: String, options: PredicateComparisonOptions = []) -> FetchPredicate {
        .typed(self, .like, .string(pattern), options: options)
    }

    /// An ICU regular expression matching the whole string.
    public func matches(_ pattern: String, options: PredicateComparisonOptions = []) -> FetchPredicate {
        .typed(self, .matches, .string(pattern), options: options)
    }

    /// Equality with `[c]`/`[d]`/`[cd]` options.
    public func equals(_ text: String, options: PredicateComparisonOptions) -> FetchPredicate {
        .typed(self, .equal, .string(text), options: options)
    }
}

extension TypedValuePath {
    /// `key IN {values…}`.
    public func `in`<Wrapped: PredicateValueConvertible>(_ values: [Wrapped]) -> FetchPredicate where Value == Wrapped? {
        .typed(self, .in, .array(values.map { FetchPredicate.constant($0) }))
    }

    /// `key BETWEEN {lower, upper}`, inclusive.
    public func between<Wrapped: PredicateValueConvertible & Comparable>(_ lower: Wrapped, _ upper: Wrapped) -> FetchPredicate
    where Value == Wrapped? {
        .typed(self, .between, .array([FetchPredicate.constant(lower), FetchPredicate.constant(upper)]))
    }
}
