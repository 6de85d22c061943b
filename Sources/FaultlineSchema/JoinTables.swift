import FaultlineModel

/// The join tables of many-to-many relationships, named as Core Data names them.
///
/// Of the two sides, the relationship of the entity with the lower number (the
/// greater name when both sides belong to one entity) names the table,
/// `Z_<n><NAME>` with `n` its entity's number. Apple's Accounts3 store shows
/// the entity number decides: `Z_4SUPPORTEDDATACLASSES` for
/// AccountType(4).supportedDataclasses against Dataclass(7).supportedTypes. The first column holds that side's keys and is named after the
/// inverse (`Z_<n><INVERSE>`), the second holds the other side's keys and is
/// named after the naming relationship (`Z_<m><NAME>`, `m` the other entity's
/// number). Observed: `Z_2BLOCKING (Z_2BLOCKEDBY, Z_2BLOCKING)` for the
/// reflexive TodoItem.blockedBy/blocking in the EasyLife fixture.
struct JoinTables {
    struct Key: Hashable {
        let entity: Int
        let name: String
    }

    private(set) var tables: [StoreTable] = []
    /// Reverse indexes: `<TABLE>_<SECOND>_INDEX ON <TABLE> (<SECOND>, <FIRST>)`.
    private(set) var reverseIndexes: [StoreIndex] = []
    private(set) var storage: [Key: RelationshipStorage] = [:]

    init(model: CheckedModel) {
        for entity in model.entities {
            for relationship in entity.relationships
            where relationship.declaringEntityIndex == entity.index && relationship.isManyToMany && !relationship.isTransient {
                guard let inverseIndex = relationship.inverseIndex else { continue }
                let destination = model.entities[relationship.destinationEntityIndex]
                let inverse = destination.relationships[inverseIndex]
                guard JoinTables.names(relationship, entity.index, over: inverse, inverse.declaringEntityIndex) else { continue }
                add(naming: relationship, in: model.entities[relationship.declaringEntityIndex],
                    inverse: inverse, of: model.entities[inverse.declaringEntityIndex])
            }
        }
    }

    /// Whether `relationship` (declared by `entity`) names the table rather than its inverse.
    private static func names(
        _ relationship: CheckedRelationship, _ entity: Int, over inverse: CheckedRelationship, _ inverseEntity: Int
    ) -> Bool {
        if entity != inverseEntity { return entity < inverseEntity }
        return relationship.name >= inverse.name
    }

    private mutating func add(
        naming relationship: CheckedRelationship, in source: CheckedEntity,
        inverse: CheckedRelationship, of destination: CheckedEntity
    ) {
        let table = "Z_\(source.number)\(relationship.name.uppercased())"
        let first = "Z_\(source.number)\(inverse.name.uppercased())"
        var second = "Z_\(destination.number)\(relationship.name.uppercased())"
        if second == first { second += "1" }  // a relationship that is its own inverse
        var columns = [StoreColumn(name: first, declaredType: .integer), StoreColumn(name: second, declaredType: .integer)]
        let firstOrder = relationship.isOrdered ? "Z_FOK_" + second.dropFirst(2) : nil
        let secondOrder = inverse.isOrdered ? "Z_FOK_" + first.dropFirst(2) : nil
        for order in [firstOrder, secondOrder].compactMap({ $0 }) {
            columns.append(StoreColumn(name: order, declaredType: .integer))
        }
        tables.append(StoreTable(name: table, columns: columns, compositePrimaryKey: [first, second]))
        reverseIndexes.append(StoreIndex(
            name: "\(table)_\(second)_INDEX", table: table, terms: [second, first], kind: .column, whereClause: nil))
        storage[Key(entity: source.index, name: relationship.name)] = .joinTable(
            table: table, sourceColumn: first, destinationColumn: second, orderColumn: firstOrder)
        storage[Key(entity: destination.index, name: inverse.name)] = .joinTable(
            table: table, sourceColumn: second, destinationColumn: first, orderColumn: secondOrder)
    }
}
