// Uniqueness constraints, fetch indexes and compound indexes: every name
// resolves (composite leaves by key path), and names only what a store can
// index — stored attributes and to-one relationships, never transient
// properties or composite containers; a to-many relationship is refused in
// constraints and compound indexes and indexes nothing in a fetch index.

extension ModelValidator {
    mutating func checkConstraints(of entity: EntityDescription) {
        for constraint in entity.uniquenessConstraints {
            if constraint.isEmpty { report(.emptyConstraint, entity: entity) }
            for name in constraint {
                guard let property = entity.property(forKeyPath: name) else {
                    report(.constraintUnknownProperty(name), entity: entity, property: name)
                    continue
                }
                if let relationship = property as? RelationshipDescription, relationship.isToMany {
                    report(.constraintOnToManyRelationship(name), entity: entity, property: name)
                } else if !Self.isIndexable(property) {
                    report(.constraintOnUnsupportedProperty(name), entity: entity, property: name)
                }
            }
        }
    }

    mutating func checkFetchIndexes(of entity: EntityDescription) {
        var names = Set<String>()
        for index in entity.indexes {
            if let problem = NameRules.problem(with: index.name, kind: .index) {
                report(problem, entity: entity, property: index.name)
            } else if !names.insert(index.name).inserted {
                report(.duplicateFetchIndexName(index.name), entity: entity, property: index.name)
            }
            if index.elements.isEmpty {
                report(.emptyFetchIndex(index.name), entity: entity, property: index.name)
            }
            for element in index.elements {
                let name = element.propertyName
                guard let property = entity.property(forKeyPath: name) else {
                    report(.fetchIndexUnknownProperty(index: index.name, property: name), entity: entity, property: name)
                    continue
                }
                // A to-many element is accepted and indexes nothing, as in Core Data:
                // Xcode compiles an indexed to-many into such an index (Apple's
                // Accounts3 store) and the store has no column for it.
                if !Self.isIndexable(property) {
                    report(.fetchIndexOnUnsupportedProperty(index: index.name, property: name), entity: entity, property: name)
                }
            }
        }
    }

    mutating func checkCompoundIndexes(of entity: EntityDescription) {
        for index in entity.compoundIndexes {
            if index.isEmpty { report(.emptyCompoundIndex, entity: entity) }
            for name in index {
                guard let property = entity.property(forKeyPath: name) else {
                    report(.compoundIndexUnknownProperty(name), entity: entity, property: name)
                    continue
                }
                if !Self.isIndexable(property) || (property as? RelationshipDescription)?.isToMany == true {
                    report(.compoundIndexOnUnsupportedProperty(name), entity: entity, property: name)
                }
            }
        }
    }

    /// Stored, non-composite properties have a column to index.
    private static func isIndexable(_ property: PropertyDescription) -> Bool {
        !property.isTransient && !(property is CompositeAttributeDescription)
    }
}
