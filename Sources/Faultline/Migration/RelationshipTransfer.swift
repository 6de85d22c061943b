import Foundation
import FaultlineSQLite

/// Relationship data whose storage changes (a to-one becoming a to-many, a
/// to-many gaining an inverse, a join table renamed by renumbering) moves as
/// the old relationship's (source key, destination key) pairs: a subquery over
/// the old tables with columns `s` and `d`. Primary keys never change in a
/// migration, so the pairs are valid in the new tables.
struct RelationshipTransfer {
    let mapping: MigrationMapping
    /// Old table name → its name while the migration runs.
    let oldName: (String) -> String

    /// The pairs of the new `relationship` of `entity`: its old counterpart's,
    /// or its inverse's old counterpart's swapped; nil when it is new.
    func pairs(for relationship: CheckedRelationship, of entity: CheckedEntity) -> String? {
        if let previous = mapping.oldRelationship(relationship, of: entity),
           let oldEntity = mapping.sourceEntity[entity.index],
           let pairs = oldPairs(previous, of: mapping.old.model.entities[oldEntity]) {
            return pairs
        }
        guard let inverseIndex = relationship.inverseIndex else { return nil }
        let destination = mapping.new.model.entities[relationship.destinationEntityIndex]
        let inverse = destination.relationships[inverseIndex]
        guard let previous = mapping.oldRelationship(inverse, of: destination),
              let oldDestination = mapping.sourceEntity[destination.index],
              let pairs = oldPairs(previous, of: mapping.old.model.entities[oldDestination]) else { return nil }
        return MigrationStatements.swapped(pairs)
    }

    /// `SELECT … AS s, … AS d` over the old storage of `relationship`.
    private func oldPairs(_ relationship: CheckedRelationship, of entity: CheckedEntity) -> String? {
        let oldMapping = mapping.oldSchema.entities[entity.index]
        switch oldMapping.relationships[relationship.index] {
        case .foreignKey(let column, _):
            return MigrationStatements.pairs(foreignKey: column, in: oldName(oldMapping.table))
        case .destinationKey(let table, let column, _, _):
            return MigrationStatements.pairs(destinationKey: column, in: oldName(table))
        case .joinTable(let table, let source, let destination, _):
            return MigrationStatements.pairs(joinTable: oldName(table), source: source, destination: destination)
        case .transient:
            return nil
        }
    }

    /// How each join table of the new schema is produced.
    struct JoinPlan {
        let table: StoreTable
        /// Kept as is: same name, columns and relationship.
        let unchanged: Bool
        /// `INSERT INTO …` filling it from the old pairs (nil: starts empty).
        let fill: String?
    }

    func joinPlans() -> [JoinPlan] {
        let model = mapping.new.model
        var plans: [JoinPlan] = []
        var seen = Set<String>()
        for entity in model.entities {
            for relationship in entity.relationships where relationship.declaringEntityIndex == entity.index {
                guard case .joinTable(let table, let source, let destination, _) =
                        mapping.newSchema.entities[entity.index].relationships[relationship.index],
                      seen.insert(table).inserted,
                      let storeTable = mapping.newSchema.tables.first(where: { $0.name == table }) else { continue }
                var unchanged = false
                if let previous = mapping.oldRelationship(relationship, of: entity),
                   let oldEntity = mapping.sourceEntity[entity.index],
                   case .joinTable(table, source, destination, _) =
                        mapping.oldSchema.entities[oldEntity].relationships[previous.index],
                   mapping.oldSchema.tables.contains(storeTable) {
                    unchanged = true
                }
                let fill = pairs(for: relationship, of: entity).map {
                    MigrationStatements.fillJoinTable(table, source: source, destination: destination, from: $0)
                }
                plans.append(JoinPlan(table: storeTable, unchanged: unchanged, fill: fill))
            }
        }
        return plans
    }
}
