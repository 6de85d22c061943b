/// Whether a predicate reads more than a saved object holds in memory: a
/// key path through a to-many relationship, a quantifier (`ANY`, `ALL`,
/// `NONE`), an aggregate or a subquery. A fetched-results controller asks the
/// store about such objects — one statement for all of a change's objects —
/// instead of loading each one's collections to evaluate it.
enum PredicateStoreReach {
    static func readsCollections(_ predicate: FetchPredicate?, from entity: CheckedEntity, in model: CheckedModel) -> Bool {
        guard let predicate else { return false }
        return reads(predicate.root, entity, model)
    }

    private static func reads(_ node: PredicateNode, _ entity: CheckedEntity, _ model: CheckedModel) -> Bool {
        switch node {
        case .constant: false
        case .not(let inner): reads(inner, entity, model)
        case .and(let terms), .or(let terms): terms.contains { reads($0, entity, model) }
        case .comparison(let comparison):
            comparison.modifier != .direct || reads(comparison.left, entity, model) || reads(comparison.right, entity, model)
        }
    }

    private static func reads(_ expression: FetchExpression, _ entity: CheckedEntity, _ model: CheckedModel) -> Bool {
        switch expression {
        case .value: return false
        case .list(let items), .function(_, let items): return items.contains { reads($0, entity, model) }
        case .aggregate, .subquery: return true
        case .conditional(let predicate, let then, let otherwise):
            return reads(predicate, entity, model) || reads(then, entity, model) || reads(otherwise, entity, model)
        case .keyPath(let path):
            guard path.variable == nil else { return false }
            var current = entity
            for key in path.components {
                guard case .relationship(let index)? = current.propertyByName[key] else { return false }
                let relationship = current.relationships[index]
                if relationship.isToMany { return true }
                current = model.entities[relationship.destinationEntityIndex]
            }
            return false
        }
    }
}
