import FaultlinePredicate

// Typed predicates through a to-many, as the format-string parser builds them:
//
//     Order.lines.any.quantity > 2                 ANY lines.quantity > 2
//     Customer.orders.all.total >= 10.0            ALL orders.total >= 10.0
//     Order.lines.none.product.title == "Atlas"    NONE lines.product.title == "Atlas"
//     Order.lines.count > 1                        lines.@count > 1
//     Order.lines.sum.quantity >= 4                lines.@sum.quantity >= 4
//     LineItem.order.customer.orders.average.total < 20.0
//
// A quantifier's members are the destination's keys (and its to-ones', to any
// depth); an aggregate's members are the destination's attributes. `@sum`,
// `@min` and `@max` keep the attribute's type; `@avg` is a `Double`, `@count`
// an `Int64`.

/// A to-many reached from an entity: a `ToManyKey`, or one through to-ones.
public protocol TypedToManyPathProtocol {
    associatedtype Destination: ManagedObject
    /// The keys from the entity to the to-many, in order.
    var toManyKeys: [String] { get }
}

extension ToManyKey: TypedToManyPathProtocol {
    public var toManyKeys: [String] { [slot.name] }
}

/// A to-many reached through to-ones: `LineItem.order.lines`.
public struct TypedToManyPath<Destination: ManagedObject>: TypedToManyPathProtocol, Sendable {
    public let toManyKeys: [String]
}

extension TypedToManyPathProtocol {
    /// `ANY path.…`: true when some member's value passes.
    public var any: TypedQuantifier<Destination> { TypedQuantifier(modifier: .any, keys: toManyKeys) }
    /// `ALL path.…`: true when every member's value passes.
    public var all: TypedQuantifier<Destination> { TypedQuantifier(modifier: .all, keys: toManyKeys) }
    /// `NONE path.…`: true when no member's value passes.
    public var none: TypedQuantifier<Destination> { TypedQuantifier(modifier: .none, keys: toManyKeys) }

    /// `path.@count`.
    public var count: TypedExpressionPath<Int64?> {
        TypedExpressionPath(predicateExpression: .aggregate(.count, of: .keyPath(PredicateKeyPath(toManyKeys)), keyPath: []))
    }

    /// `path.@sum.attribute`.
    public var sum: TypedSum<Destination> { TypedSum(keys: toManyKeys) }
    /// `path.@min.attribute`.
    public var min: TypedAggregate<Destination> { TypedAggregate(aggregate: .min, keys: toManyKeys) }
    /// `path.@max.attribute`.
    public var max: TypedAggregate<Destination> { TypedAggregate(aggregate: .max, keys: toManyKeys) }
    /// `path.@avg.attribute`, a `Double` whatever the attribute's numeric type.
    public var average: TypedAverage<Destination> { TypedAverage(keys: toManyKeys) }
}

/// `ANY`, `ALL` or `NONE` over a to-many; its members are the destination's keys.
@dynamicMemberLookup
public struct TypedQuantifier<Destination: ManagedObject>: Sendable {
    let modifier: PredicateModifier
    let keys: [String]

    public subscript<Value>(dynamicMember member: KeyPath<Destination.Type, AttributeKey<Value>>) -> TypedQuantifiedPath<Value> {
        TypedQuantifiedPath(predicateModifier: modifier, keys: keys + [Destination.self[keyPath: member].slot.name])
    }

    public subscript<Next>(dynamicMember member: KeyPath<Destination.Type, ToOneKey<Next>>) -> TypedQuantifier<Next> {
        TypedQuantifier<Next>(modifier: modifier, keys: keys + [Destination.self[keyPath: member].slot.name])
    }
}

/// A member's attribute under a quantifier: `Order.lines.any.quantity`.
public struct TypedQuantifiedPath<Value>: TypedValuePath, Sendable {
    public let predicateModifier: PredicateModifier
    let keys: [String]
    public var predicateExpression: FetchExpression { .keyPath(PredicateKeyPath(keys)) }
}

/// A value computed from the object, compared like an attribute: `Order.lines.count`.
public struct TypedExpressionPath<Value>: TypedValuePath, Sendable {
    public let predicateExpression: FetchExpression
}

/// `@min` or `@max` over a to-many; its members are the destination's attributes of ordered types.
@dynamicMemberLookup
public struct TypedAggregate<Destination: ManagedObject>: Sendable {
    let aggregate: PredicateAggregate
    let keys: [String]

    public subscript<Wrapped: Comparable>(dynamicMember member: KeyPath<Destination.Type, AttributeKey<Wrapped?>>)
        -> TypedExpressionPath<Wrapped?>
    {
        TypedExpressionPath(predicateExpression: aggregated(aggregate, keys, Destination.self[keyPath: member].slot.name))
    }
}

/// `@sum` over a to-many; its members are the destination's numeric attributes, summed in their type.
@dynamicMemberLookup
public struct TypedSum<Destination: ManagedObject>: Sendable {
    let keys: [String]

    public subscript<Wrapped: Numeric>(dynamicMember member: KeyPath<Destination.Type, AttributeKey<Wrapped?>>)
        -> TypedExpressionPath<Wrapped?>
    {
        TypedExpressionPath(predicateExpression: aggregated(.sum, keys, Destination.self[keyPath: member].slot.name))
    }
}

/// `@avg` over a to-many: a `Double` of any numeric attribute.
@dynamicMemberLookup
public struct TypedAverage<Destination: ManagedObject>: Sendable {
    let keys: [String]

    public subscript<Wrapped: Numeric>(dynamicMember member: KeyPath<Destination.Type, AttributeKey<Wrapped?>>)
        -> TypedExpressionPath<Double?>
    {
        TypedExpressionPath(predicateExpression: aggregated(.avg, keys, Destination.self[keyPath: member].slot.name))
    }
}

private func aggregated(_ aggregate: PredicateAggregate, _ keys: [String], _ member: String) -> FetchExpression {
    .aggregate(aggregate, of: .keyPath(PredicateKeyPath(keys)), keyPath: [member])
}
