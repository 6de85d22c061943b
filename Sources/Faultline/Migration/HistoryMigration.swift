import Foundation
import FaultlineSQLite

/// Carries a store's persistent history across a migration, inside its
/// transaction. History rows name an entity by its number and a change's
/// properties by slots of that entity (`HistoryEntityLayout`), both of which a
/// new model can move; so each change row is rewritten to name the same
/// object and the same properties under the new model:
///
/// - `ZENTITY` becomes the new number of the entity the rows went to (a
///   renamed entity keeps its history);
/// - an update's `ZCOLUMNS` mask names the same properties in the new slots,
///   renamed properties by their new names; properties the new model lacks
///   drop out of it;
/// - a delete's tombstones move to the columns of the new model's preserved
///   attributes that the old ones became; an attribute that is no longer
///   preserved loses its tombstone;
/// - rows of an entity the new model does not have are deleted, as its rows are.
///
/// Transactions, their names and tokens are kept as they are, so a token saved
/// before the migration still reads the history after it. The migration
/// itself records no transaction (Core Data's does not either: it is not a
/// save), so an observer of remote changes sees none of its row changes.
struct HistoryMigration {
    let mapping: MigrationMapping

    func apply(on connection: Connection) throws {
        guard let tables = try HistoryStatements.layout(on: connection) else { return }
        let oldModel = mapping.old.model
        let newModel = mapping.new.model
        let needed = newModel.entities.map { HistoryEntityLayout(entity: $0, model: newModel).tombstoneAttributes.count }.max() ?? 0
        if needed > tables.tombstoneColumns {
            try HistoryStatements.addTombstoneColumns(from: tables.tombstoneColumns, to: needed, on: connection)
        }
        for oldEntity in oldModel.entities {
            guard let target = mapping.targetEntity[oldEntity.index] else {
                try HistoryMigrationStatements.deleteChanges(ofEntity: oldEntity.number, on: connection)
                continue
            }
            let newEntity = newModel.entities[target]
            let oldLayout = HistoryEntityLayout(entity: oldEntity, model: oldModel)
            let newLayout = HistoryEntityLayout(entity: newEntity, model: newModel)
            let names = newNames(of: oldEntity, in: newEntity, layout: newLayout)
            let sources = tombstoneSources(oldEntity, oldLayout, newEntity, newLayout, names: names)
            let oldCount = oldLayout.tombstoneAttributes.count
            if sources != (0..<oldCount).map(Optional.some) {
                // Old columns past the new ones are cleared.
                let cleared = [Int?](repeating: nil, count: max(0, oldCount - sources.count))
                try HistoryMigrationStatements.moveTombstones(ofEntity: oldEntity.number, sources: sources + cleared, on: connection)
            }
            let sameSlots = oldLayout.slotNames == newLayout.slotNames && names.allSatisfy { $0.key == $0.value }
            for mask in try HistoryMigrationStatements.masks(ofEntity: oldEntity.number, on: connection) {
                var newMask = mask
                if let mask, !sameSlots {
                    guard let properties = oldLayout.propertyNames(inMask: mask) else {
                        throw MigrationError.unreadableHistory(
                            entity: oldEntity.name, mask: mask.map { String(format: "%02x", $0) }.joined())
                    }
                    newMask = newLayout.mask(slots: newLayout.slots(named: properties.compactMap { names[$0] }, in: newEntity))
                }
                try HistoryMigrationStatements.renumber(
                    entity: oldEntity.number, mask: mask, to: newEntity.number, mask: newMask, on: connection)
            }
        }
        try HistoryMigrationStatements.finishRenumbering(on: connection)
    }

    /// Old top-level property name → its new name, for the properties the new
    /// entity keeps (by renaming identifier, else by name).
    private func newNames(of oldEntity: CheckedEntity, in newEntity: CheckedEntity,
                          layout: HistoryEntityLayout) -> [String: String] {
        var names: [String: String] = [:]
        for case let name? in layout.slotNames {
            let old = mapping.new.renamedFrom(name, in: newEntity) ?? name
            if oldEntity.propertyByName[old] != nil { names[old] = name }
            else if old != name, oldEntity.propertyByName[name] != nil { names[name] = name }
        }
        return names
    }

    /// For each new tombstone column, the old column holding the same
    /// attribute's value, nil when the old entity did not preserve it.
    private func tombstoneSources(_ oldEntity: CheckedEntity, _ oldLayout: HistoryEntityLayout,
                                  _ newEntity: CheckedEntity, _ newLayout: HistoryEntityLayout,
                                  names: [String: String]) -> [Int?] {
        let oldNameByNew = Dictionary(names.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        let oldColumns = Dictionary(
            oldLayout.tombstoneAttributes.enumerated().map { (oldEntity.attributes[$0.element].name, $0.offset) },
            uniquingKeysWith: { first, _ in first })
        return newLayout.tombstoneAttributes.map { index in
            oldNameByNew[newEntity.attributes[index].name].flatMap { oldColumns[$0] }
        }
    }
}
