import Foundation

/// Managed objects in the predicate evaluator (pending changes of a fetch,
/// tests): attributes by their current values, to-ones as objects, to-manys as
/// their members, composites as nested subjects. Reading may fire faults.
extension ManagedObject: PredicateSubject, PredicateValueConvertible {
    public func predicateValue(forKey key: String) throws -> PredicateOperand {
        guard let entity else { throw FetchPredicateError.unknownKey(entity: "?", key: key) }
        guard let property = entity.propertyByName[key] else {
            if key == EntityKey.name { return .value(.string(entity.name)) }
            throw FetchPredicateError.unknownKey(entity: entity.name, key: key)
        }
        switch property {
        case .attribute(let index):
            let value = attributeValue(at: index).predicateValue
            return value == .null ? .null : .value(value)
        case .relationship(let index):
            if entity.relationships[index].isToMany { return .objects(members(at: index)) }
            return destination(at: index).map { .object($0) } ?? .null
        case .composite(let index):
            return .object(CompositeSubject(object: self, prefix: entity.composites[index].name))
        }
    }

    public var predicateObjectID: PredicateObjectID? {
        entity.map { PredicateObjectID(entityName: $0.name, primaryKey: objectID.primaryKey) }
    }

    /// `author == %@` with an object argument compares its ID.
    public func predicateValue() throws(FetchPredicateError) -> PredicateValue {
        guard let id = predicateObjectID else { throw .unsupportedArgumentType(index: 0, type: "ManagedObject without a context") }
        return .objectID(id)
    }
}

/// A composite attribute's elements, addressed as `composite.element`.
private struct CompositeSubject: PredicateSubject {
    let object: ManagedObject
    let prefix: String

    func predicateValue(forKey key: String) throws -> PredicateOperand {
        try object.predicateValue(forKey: prefix + "." + key)
    }
}
