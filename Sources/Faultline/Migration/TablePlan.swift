import Foundation
import FaultlineSQLite

/// An SQL expression over the old row (aliased `src`) with its bound values.
struct ColumnValue: Equatable {
    var sql: String
    var bindings: [SQLValue] = []
}

/// Where one new entity's rows come from and what each of their columns holds.
struct EntityCopy {
    let newEntity: CheckedEntity
    let oldEntity: CheckedEntity
    /// The old entity's table (its name before any renaming).
    let oldTable: String
    /// Whether the old table holds other entities' rows too (filter on Z_ENT).
    let oldShared: Bool
    /// New column → its value (absent: NULL).
    var values: [String: ColumnValue] = [:]
    /// Columns the old entity's rows used in the old schema.
    var oldColumns: Set<String> = []
    /// Required attributes without default: (attribute, old column or nil when new).
    var requiredChecks: [(attribute: String, oldColumn: String?)] = []
    /// Derived attributes that must be recomputed (not carried).
    var recompute: [CheckedAttribute] = []
    /// Key columns whose `Z_ENT` companion must be filled from the destination.
    var entityColumnFills: [(keyColumn: String, entityColumn: String, destination: Int)] = []
}

/// How one table of the new schema is produced.
struct TablePlan {
    enum Mode: Equatable {
        /// A new table: created, then filled by `copies`.
        case create
        /// The old table of the same name is kept: columns appended with
        /// `ALTER TABLE ADD COLUMN`, values changed with UPDATE, rows of removed
        /// entities deleted, `Z_ENT` renumbered; `orphans` are old columns left
        /// for deferred clean-up.
        case inPlace(appended: [StoreColumn], orphans: [String])
    }

    let table: StoreTable
    var mode: Mode
    var copies: [EntityCopy]
    /// Old entities whose rows sit in the kept table but have no new entity.
    var removedEntityNumbers: [Int] = []
}

/// Builds the column values of every copied entity.
struct TablePlanner {
    let mapping: MigrationMapping
    /// Old table name → the name it has while the migration runs.
    let oldName: (String) -> String
    let transfer: RelationshipTransfer
    /// Tables (upper-cased) rebuilt even when they could be kept in place.
    var rebuilt: Set<String> = []

    func copy(_ entity: CheckedEntity, from old: CheckedEntity) -> EntityCopy {
        let oldMapping = mapping.oldSchema.entities[old.index]
        var copy = EntityCopy(newEntity: entity, oldEntity: old, oldTable: oldMapping.table, oldShared: oldMapping.sharesTable)
        let oldOwned = OwnedColumn.columns(of: old, in: mapping.oldSchema)
        copy.oldColumns = Set(oldOwned.flatMap(\.names))
        var oldAttributeColumn: [String: String] = [:]
        var oldForeignKey: [String: (String, String?)] = [:]
        var oldHidden: [String: String] = [:]
        var oldOrder: [String: String] = [:]
        for owned in oldOwned {
            switch owned {
            case .attribute(let attribute, let column): oldAttributeColumn[attribute.name] = column
            case .foreignKey(let relationship, let column, let entityColumn): oldForeignKey[relationship.name] = (column, entityColumn)
            case .hiddenKey(let owner, let relationship, let column): oldHidden["\(owner).\(relationship.name)"] = column
            case .order(let owner, let relationship, let column): oldOrder["\(owner).\(relationship.name)"] = column
            case .averageParts: break
            }
        }
        copy.values["Z_PK"] = MigrationStatements.oldColumn("Z_PK")
        copy.values["Z_ENT"] = MigrationStatements.entityNumber(entity.number)
        copy.values["Z_OPT"] = MigrationStatements.oldColumn("Z_OPT")
        for owned in OwnedColumn.columns(of: entity, in: mapping.newSchema) {
            switch owned {
            case .attribute(let attribute, let column):
                let previous = mapping.oldAttribute(attribute, of: entity)
                let previousColumn = previous.flatMap { oldAttributeColumn[$0.name] }
                if let derivation = attribute.derivation {
                    if let previous, let previousColumn, previous.derivation == derivation,
                       TableLayout.declaredType(of: previous.attributeType) == TableLayout.declaredType(of: attribute.attributeType) {
                        copy.values[column] = MigrationStatements.oldColumn(previousColumn)
                    } else {
                        copy.recompute.append(attribute)
                    }
                    continue
                }
                let fallback = attribute.defaultValue.map(\.sqlValue).flatMap { $0 == .null ? nil : $0 }
                switch (previousColumn, fallback) {
                case (let old?, let value?) where !attribute.isOptional:
                    copy.values[column] = MigrationStatements.oldColumn(old, orBound: value)
                case (let old?, _):
                    copy.values[column] = MigrationStatements.oldColumn(old)
                    if !attribute.isOptional { copy.requiredChecks.append((attribute.name, old)) }
                case (nil, let value?):
                    copy.values[column] = MigrationStatements.bound(value)
                case (nil, nil):
                    if !attribute.isOptional { copy.requiredChecks.append((attribute.name, nil)) }
                }
            case .averageParts(let attribute, let sum, let count):
                guard let previous = mapping.oldAttribute(attribute, of: entity), previous.derivation == attribute.derivation,
                      let previousColumn = oldAttributeColumn[previous.name] else { continue }
                copy.values[sum] = MigrationStatements.oldColumn(AverageColumns.sum(of: previousColumn))
                copy.values[count] = MigrationStatements.oldColumn(AverageColumns.count(of: previousColumn))
            case .foreignKey(let relationship, let column, let entityColumn):
                let previous = mapping.oldRelationship(relationship, of: entity)
                if let previous, let found = oldForeignKey[previous.name] {
                    let (oldColumn, oldEntityColumn) = found
                    copy.values[column] = MigrationStatements.oldColumn(oldColumn)
                    if let entityColumn, let oldEntityColumn {
                        copy.values[entityColumn] = MigrationStatements.renumbered(oldColumn: oldEntityColumn, entityMoves)
                    } else if let entityColumn {
                        copy.entityColumnFills.append((column, entityColumn, relationship.destinationEntityIndex))
                    }
                } else if let pairs = transfer.pairs(for: relationship, of: entity) {
                    copy.values[column] = MigrationStatements.firstDestination(in: pairs)
                    if let entityColumn {
                        copy.entityColumnFills.append((column, entityColumn, relationship.destinationEntityIndex))
                    }
                }
            case .hiddenKey(let owner, let relationship, let column):
                let ownerEntity = mapping.new.model.entities[owner]
                if let previous = mapping.oldRelationship(relationship, of: ownerEntity),
                   let oldColumn = oldHidden["\(previous.declaringEntityIndex).\(previous.name)"] {
                    copy.values[column] = MigrationStatements.oldColumn(oldColumn)
                } else if let pairs = transfer.pairs(for: relationship, of: ownerEntity) {
                    copy.values[column] = MigrationStatements.firstSource(in: pairs)
                }
            case .order(let owner, let relationship, let column):
                let ownerEntity = mapping.new.model.entities[owner]
                if let previous = mapping.oldRelationship(relationship, of: ownerEntity),
                   let oldColumn = oldOrder["\(previous.declaringEntityIndex).\(previous.name)"] {
                    copy.values[column] = MigrationStatements.oldColumn(oldColumn)
                }
            }
        }
        return copy
    }

    /// Old entity number → new, for every old entity that has a new one.
    var entityMoves: [(old: Int, new: Int)] {
        mapping.targetEntity.enumerated().compactMap { old, new in new.map { (old + 1, $0 + 1) } }
    }

    /// The plans of every entity table of the new schema.
    func plans(deferCleanup: Bool) -> [TablePlan] {
        let newModel = mapping.new.model
        let oldTables = Dictionary(mapping.oldSchema.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var result: [TablePlan] = []
        for rootIndex in newModel.rootEntityIndexes {
            let root = newModel.entities[rootIndex]
            let tableName = mapping.newSchema.entities[rootIndex].table
            guard let table = mapping.newSchema.tables.first(where: { $0.name == tableName }) else { continue }
            let copies = root.hierarchyIndexes.compactMap { index -> EntityCopy? in
                guard let old = mapping.sourceEntity[index] else { return nil }
                return copy(newModel.entities[index], from: mapping.old.model.entities[old])
            }
            var plan = TablePlan(table: table, mode: .create, copies: copies)
            if let oldTable = oldTables[tableName], !rebuilt.contains(tableName.uppercased()),
               let mode = inPlaceMode(table, old: oldTable, copies: copies, deferCleanup: deferCleanup) {
                plan.mode = mode
                plan.removedEntityNumbers = mapping.old.model.entities.filter {
                    mapping.oldSchema.entities[$0.index].table == tableName && mapping.targetEntity[$0.index] == nil
                }.map(\.number)
            }
            result.append(plan)
        }
        return result
    }

    /// The in-place mode, when the old table can be kept: every row it holds
    /// stays in this table, and its surviving columns are a prefix of the new
    /// columns with the same names and types.
    private func inPlaceMode(_ table: StoreTable, old: StoreTable, copies: [EntityCopy], deferCleanup: Bool) -> TablePlan.Mode? {
        guard copies.allSatisfy({ $0.oldTable == old.name }) else { return nil }
        for entity in mapping.old.model.entities where mapping.oldSchema.entities[entity.index].table == old.name {
            if let target = mapping.targetEntity[entity.index], mapping.newSchema.entities[target].table != table.name {
                return nil
            }
        }
        let newNames = Set(table.columns.map(\.name))
        let orphans = old.columns.filter { !newNames.contains($0.name) }.map(\.name)
        if !orphans.isEmpty && !deferCleanup { return nil }
        let kept = old.columns.filter { newNames.contains($0.name) }
        guard table.columns.count >= kept.count, Array(table.columns.prefix(kept.count)) == kept else { return nil }
        return .inPlace(appended: Array(table.columns.dropFirst(kept.count)), orphans: orphans)
    }
}
