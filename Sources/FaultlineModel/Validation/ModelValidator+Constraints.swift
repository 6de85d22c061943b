// Uniqueness constraints, fetch indexes and compound indexes: every name
// resolves (composite leaves by key path), and names only what a store can
// index — stored attributes and to-one relationships, never transient
// properties or composite containers; a to-many relationship is refused in
// constraints and compound indexes and indexes nothing in a fetch index.

extension ModelValidator {
    mutating func checkConstraints(of entity: EntityDescription) {
        checkPropertyLists(entity.uniquenessConstraints, of: entity, empty: .emptyConstraint,
                           unknown: ModelIssue.Kind.constraintUnknownProperty,
                           toMany: ModelIssue.Kind.constraintOnToManyRelationship,
                           unsupported: ModelIssue.Kind.constraintOnUnsupportedProperty)
    }

    mutating func checkCompoundIndexes(of entity: EntityDescription) {
        checkPropertyLists(entity.compoundIndexes, of: entity, empty: .emptyCompoundIndex,
                           unknown: ModelIssue.Kind.compoundIndexUnknownProperty,
                           toMany: ModelIssue.Kind.compoundIndexOnUnsupportedProperty,
                           unsupported: ModelIssue.Kind.compoundIndexOnUnsupportedProperty)
    }

    /// Lists of property names (constraints, compound indexes): none empty, every
    /// name resolves to a stored, non-composite attribute or to-one.
    private mutating func checkPropertyLists(
        _ lists: [[String]], of entity: EntityDescription, empty: ModelIssue.Kind,
        unknown: (String) -> ModelIssue.Kind, toMany: (String) -> ModelIssue.Kind, unsupported: (String) -> ModelIssue.Kind
    ) {
        for list in lists {
            if list.isEmpty { report(empty, entity: entity) }
            for name in list {
                guard let property = entity.property(forKeyPath: name) else {
                    report(unknown(name), entity: entity, property: name)
                    continue
                }
                if let relationship = property as? RelationshipDescription, relationship.isToMany {
                    report(toMany(name), entity: entity, property: name)
                } else if !Self.isIndexable(property) {
                    report(unsupported(name), entity: entity, property: name)
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

    /// Stored, non-composite properties have a column to index.
    private static func isIndexable(_ property: PropertyDescription) -> Bool {
        !property.isTransient && !(property is CompositeAttributeDescription)
    }
}
