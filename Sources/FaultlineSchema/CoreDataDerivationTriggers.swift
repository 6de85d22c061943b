import FaultlineModel

/// Core Data's own triggers for a derived attribute (`Z_DA_…`), for the
/// derivations whose text is known from stores Core Data wrote, byte for
/// byte. Faultline writes these into a Core Data store it migrates, so the
/// store keeps the triggers Core Data itself would have written: Faultline's
/// own form (`DerivedAttributeTriggers`) calls functions only Faultline
/// registers, and a Core Data app writing the store would fail on them.
///
/// Known (CoreDataPlus's SampleModel2 stores, written by iOS 17's Core Data):
/// `@count` of a to-many kept as its to-one inverse's key in the
/// destination's table — four triggers on the destination table keep the
/// count as members come, move and go, and one on the owner's table
/// computes it for a new owner. Each reports the new value through
/// `NSCoreDataDATriggerUpdatedAffectedObjectValue`, which a Core Data
/// process implements and Faultline registers as a no-op
/// (`CoreDataTriggerFunctions`).
package enum CoreDataDerivationTriggers {
    /// Core Data's triggers for `attribute` of `entity` (its declaring
    /// entity) in `schema`; nil when no store Core Data wrote has shown
    /// the form for its derivation.
    package static func triggers(for attribute: CheckedAttribute, of entity: CheckedEntity, in schema: StoreSchema)
        -> [StoreTrigger]?
    {
        guard case .aggregate(.count, let name, nil)? = attribute.derivation,
              let relationship = entity.relationship(named: name), relationship.isToMany,
              case let .destinationKey(child, link, _, false) = schema.entities[entity.index].relationships[relationship.index],
              let column = schema.entities[entity.index].column(forAttributeAt: attribute.index)
        else { return nil }
        let owner = schema.entities[entity.index].table
        let prefix = "Z_DA_\(child)_\(entity.name)_\(attribute.name)_PARAMETER"
        func report(_ function: String, _ key: String) -> String {
            "SELECT \(function)('\(owner)', Z_ENT, Z_PK, '\(attribute.name)', \(column)) FROM \(owner) WHERE Z_PK = \(key);"
        }
        let updated = "NSCoreDataDATriggerUpdatedAffectedObjectValue"
        func trigger(_ name: String, _ event: String, on table: String, when: String?, _ body: String) -> StoreTrigger {
            let condition = when.map { " WHEN (\($0))" } ?? ""
            return StoreTrigger(
                name: name,
                createStatement: "CREATE TRIGGER \(name) AFTER \(event) ON \(table) FOR EACH ROW\(condition) BEGIN \(body) END")
        }
        return [
            trigger("\(prefix)_INSERT", "INSERT", on: child, when: "NEW.\(link) NOT NULL",
                    "UPDATE \(owner) SET \(column) = IFNULL(\(column), 0) + 1 WHERE Z_PK = NEW.\(link); "
                        + report(updated, "NEW.\(link)")),
            trigger("\(prefix)_UPDATE_INCREMENT", "UPDATE OF \(link)", on: child, when: "NEW.\(link) NOT NULL",
                    "UPDATE \(owner) SET \(column) = \(column) + 1 WHERE Z_PK = NEW.\(link); " + report(updated, "NEW.\(link)")),
            trigger("\(prefix)_UPDATE_DECREMENT", "UPDATE OF \(link)", on: child, when: "OLD.\(link) NOT NULL",
                    "UPDATE \(owner) SET \(column) = \(column) - 1 WHERE Z_PK = OLD.\(link); " + report(updated, "OLD.\(link)")),
            trigger("\(prefix)_DELETE", "DELETE", on: child, when: "OLD.\(link) NOT NULL",
                    "UPDATE \(owner) SET \(column) = \(column) - 1 WHERE Z_PK = OLD.\(link); " + report(updated, "OLD.\(link)")),
            trigger("Z_DA_\(owner)_\(entity.name)_\(attribute.name)_SOURCE_INSERT", "INSERT", on: owner, when: nil,
                    "UPDATE \(owner) SET \(column) = (SELECT IFNULL(COUNT(\(link)), 0) FROM \(child) WHERE \(link) = NEW.Z_PK) "
                        + "WHERE Z_PK = NEW.Z_PK; " + report("NSCoreDataDATriggerInsertUpdatedAffectedObjectValue", "NEW.Z_PK")),
        ]
    }
}
