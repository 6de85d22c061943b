import FaultlineModel
import FaultlinePredicate

/// `entity` in a predicate, as in Core Data: the evaluated object's own entity,
/// compared by name (`entity == %@` with an entity picks the objects of exactly
/// that entity, none of its sub-entities). No property may take the name.
enum EntityKey {
    static let name = "entity"
}

/// An entity passed for `%@` stands for its name, what `entity` resolves to.
extension EntityDescription: PredicateValueConvertible {
    public func predicateValue() throws(FetchPredicateError) -> PredicateValue {
        guard let name else { throw .unsupportedArgumentType(index: 0, type: "EntityDescription without a name") }
        return .string(name)
    }
}

extension CheckedEntity: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { .string(name) }
}
