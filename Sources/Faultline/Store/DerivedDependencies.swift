/// Which entities' cached rows go stale when another entity's rows change,
/// because a trigger maintaining a derived attribute writes them.
enum DerivedDependencies {
    /// For each entity index, the entities whose derived attributes depend on it.
    static func dependents(in model: CheckedModel) -> [Set<Int>] {
        var result = Array(repeating: Set<Int>(), count: model.entities.count)
        for entity in model.entities {
            for attribute in entity.attributes where attribute.declaringEntityIndex == entity.index {
                guard let derivation = attribute.derivation else { continue }
                for source in sources(of: derivation, from: entity, in: model) {
                    for member in model.entities[source].hierarchyIndexes { result[member].formUnion(entity.hierarchyIndexes) }
                }
            }
        }
        return result
    }

    /// Entities (other than the owner's own row) read by a derivation.
    static func sources(of derivation: DerivationExpression, from entity: CheckedEntity, in model: CheckedModel) -> [Int] {
        switch derivation {
        case .now:
            return []
        case .aggregate(_, let relationship, _):
            return entity.relationship(named: relationship).map { [$0.destinationEntityIndex] } ?? []
        case .keyPath(let path), .canonical(let path), .lowercase(let path), .uppercase(let path):
            var current = entity
            var sources: [Int] = []
            for component in path {
                guard let relationship = current.relationship(named: component) else { break }
                current = model.entities[relationship.destinationEntityIndex]
                sources.append(current.index)
            }
            return sources
        }
    }
}
