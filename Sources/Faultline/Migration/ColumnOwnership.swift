import Foundation
import FaultlineSQLite

/// What one entity's rows keep in their table's columns, in one schema: its
/// stored attributes (and an average's hidden sum and count), its to-one keys,
/// and the hidden keys and order columns that to-many relationships pointing at
/// it keep in its rows.
enum OwnedColumn {
    case attribute(CheckedAttribute, column: String)
    case averageParts(CheckedAttribute, sum: String, count: String)
    case foreignKey(CheckedRelationship, column: String, entityColumn: String?)
    /// The hidden key of `relationship` (declared on `owner`) pointing here.
    case hiddenKey(owner: Int, CheckedRelationship, column: String)
    /// The ordering column of `relationship` (declared on `owner`).
    case order(owner: Int, CheckedRelationship, column: String)

    /// Every column of `entity`'s rows in `schema`.
    static func columns(of entity: CheckedEntity, in schema: StoreSchema) -> [OwnedColumn] {
        let model = schema.model
        let mapping = schema.entities[entity.index]
        var result: [OwnedColumn] = []
        for attribute in entity.attributes where attribute.isStored {
            guard let column = mapping.column(forAttributeAt: attribute.index) else { continue }
            result.append(.attribute(attribute, column: column))
            if case .aggregate(.avg, _, _?)? = attribute.derivation {
                let sum = AverageColumns.sum(of: column)
                let table = schema.tables.first { $0.name == mapping.table }
                if table?.columns.contains(where: { $0.name == sum }) == true {
                    result.append(.averageParts(attribute, sum: sum, count: AverageColumns.count(of: column)))
                }
            }
        }
        for relationship in entity.relationships {
            if case .foreignKey(let column, let entityColumn) = mapping.relationships[relationship.index] {
                result.append(.foreignKey(relationship, column: column, entityColumn: entityColumn))
            }
        }
        for owner in model.entities {
            let ownerMapping = schema.entities[owner.index]
            for relationship in owner.relationships where relationship.declaringEntityIndex == owner.index {
                guard model.entities[relationship.destinationEntityIndex].hierarchyIndexes.contains(entity.index),
                      case .destinationKey(_, let column, let order, let hidden) = ownerMapping.relationships[relationship.index]
                else { continue }
                if hidden { result.append(.hiddenKey(owner: owner.index, relationship, column: column)) }
                if let order { result.append(.order(owner: owner.index, relationship, column: order)) }
            }
        }
        return result
    }

    /// The column names.
    var names: [String] {
        switch self {
        case .attribute(_, let column): [column]
        case .averageParts(_, let sum, let count): [sum, count]
        case .foreignKey(_, let column, let entityColumn): [column] + (entityColumn.map { [$0] } ?? [])
        case .hiddenKey(_, _, let column), .order(_, _, let column): [column]
        }
    }
}

