import Foundation
import FaultlineSQLite

/// Runs one inferred lightweight migration on a store, in one transaction.
///
/// The steps follow SQLite's table-rebuild procedure (sqlite.org/lang_altertable.html,
/// "Making Other Kinds Of Table Schema Changes"): foreign keys off, one
/// transaction, triggers dropped, each changed table rebuilt (old one renamed
/// aside, new one created under the final name, rows copied, old one dropped),
/// indexes and triggers recreated, `PRAGMA foreign_key_check`, commit, foreign
/// keys back on. One difference: the procedure creates `new_X` and renames it
/// to `X`; Faultline renames the old `X` aside instead, because SQLite rewrites
/// a renamed table's `CREATE` text (quoting its name), and the store must keep
/// exactly the statements a fresh store has. Renaming the old table is safe
/// here because every trigger is dropped first and stores have no views.
public enum LightweightMigration {
    /// Migrates the store on `connection` (written by `old`) to `new`, in one
    /// IMMEDIATE transaction (a savepoint when one is already open). On any
    /// error the store is left as it was.
    public static func migrate(
        on connection: Connection, from old: ModelVersion, to new: ModelVersion,
        deferCleanup: Bool = false, stage: String = "lightweight",
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws {
        try migrate(using: StoreWriter(migrating: connection), from: old, to: new,
                    deferCleanup: deferCleanup, stage: stage, progress: progress)
    }

    /// The same, through the store's `writer`: foreign keys off around the
    /// outermost transaction, as the rebuild procedure says. `checks` says how
    /// the store is verified before and after (Faultline's own stores: against
    /// the schema they record). A custom stage checks required relationships
    /// itself, once its `didMigrate` had the chance to fill them.
    static func migrate(
        using writer: StoreWriter, from old: ModelVersion, to new: ModelVersion,
        deferCleanup: Bool = false, stage: String = "lightweight",
        progress: (@Sendable (MigrationProgress) -> Void)? = nil,
        checks: any MigrationChecks = RecordedSchemaChecks(), files: MigrationFileChanges? = nil,
        checksRequiredRelationships: Bool = true
    ) throws {
        // Nested in a caller's transaction, the caller ends the files with it.
        let owned = files == nil ? MigrationFileChanges() : nil
        do {
            try writer.write(foreignKeysOff: true) { connection in
                var run = MigrationRun(connection: connection, stage: stage, progress: progress, checks: checks,
                                       files: files ?? owned ?? MigrationFileChanges())
                try run.apply(from: old, to: new, deferCleanup: deferCleanup, checksRequiredRelationships: checksRequiredRelationships)
                return ((), nil)
            }
        } catch {
            owned?.ended(committed: false)
            throw error
        }
        owned?.ended(committed: true)
    }
}

/// The state of one migration while it runs.
struct MigrationRun {
    let connection: Connection
    let stage: String
    let progress: (@Sendable (MigrationProgress) -> Void)?
    let checks: any MigrationChecks
    let files: MigrationFileChanges
    static let asidePrefix = "Z_MIG_OLD_"

    mutating func apply(from old: ModelVersion, to new: ModelVersion, deferCleanup: Bool, checksRequiredRelationships: Bool) throws {
        var metadata = try StoreBootstrap.metadata(on: connection)
        if DeferredCleanup.Record.stored(in: metadata) != nil {
            try DeferredCleanup.finish(on: connection, model: old.model)
            metadata = try StoreBootstrap.metadata(on: connection)
        }
        let mapping = try MigrationMapping(from: old, to: new)
        try checks.before(connection, old: old, new: new, mapping: mapping, metadata: metadata)

        // Which old tables stay where they are, which are set aside. A table
        // whose UNIQUE clause is not the new model's constraint is rebuilt:
        // nothing else removes the clause (UniqueClauseIndexes).
        let hadAutoindexes = try UniqueClauseIndexes.storeHasAutoindexes(connection)
        let rebuilt = hadAutoindexes ? try UniqueClauseIndexes.tablesToRebuild(in: connection, schema: mapping.newSchema) : []
        let draft = TablePlanner(mapping: mapping, oldName: { $0 },
                                 transfer: RelationshipTransfer(mapping: mapping, oldName: { $0 }), rebuilt: rebuilt)
        let draftPlans = draft.plans(deferCleanup: deferCleanup)
        let draftJoins = RelationshipTransfer(mapping: mapping, oldName: { $0 }).joinPlans()
        var kept = Set(draftPlans.filter { $0.mode != .create }.map(\.table.name))
        kept.formUnion(draftJoins.filter(\.unchanged).map(\.table.name))
        let newNames = Set(mapping.newSchema.tables.map(\.name))
        let oldNames = mapping.oldSchema.tables.map(\.name)
        let aside = Set(oldNames.filter { !kept.contains($0) && newNames.contains($0) })
        let oldName: (String) -> String = { aside.contains($0) ? MigrationRun.asidePrefix + $0 : $0 }
        let transfer = RelationshipTransfer(mapping: mapping, oldName: oldName)
        let plans = TablePlanner(mapping: mapping, oldName: oldName, transfer: transfer, rebuilt: rebuilt).plans(deferCleanup: deferCleanup)

        try checkRequiredValues(plans)
        let triggers = try checks.triggerStatements(mapping: mapping, on: connection)
        for name in try connection.schemaObjectNames(ofType: "trigger") { try connection.dropSchemaObject(ofType: .trigger, named: name) }
        for name in oldNames where aside.contains(name) { try connection.renameTable(name, to: oldName(name)) }
        var record = DeferredCleanup.Record()
        for plan in plans {
            try build(plan, oldName: oldName, mapping: mapping)
            if case .inPlace(_, let orphans) = plan.mode, !orphans.isEmpty { record.columns[plan.table.name] = orphans }
        }
        for join in transfer.joinPlans() where !join.unchanged {
            try connection.execute(join.table.createStatement)
            if let fill = join.fill { try connection.execute(fill, []) }
        }
        for plan in plans { try fillEntityColumns(plan, schema: mapping.newSchema) }
        try checks.convertValues(connection, mapping: mapping, files: files)
        for name in oldNames where !kept.contains(name) {
            if deferCleanup && !aside.contains(name) { record.tables.append(name); continue }
            try connection.dropSchemaObject(ofType: .table, named: oldName(name))
        }
        var recompute: [String: (entity: CheckedEntity, attribute: CheckedAttribute)] = [:]
        for copy in plans.flatMap(\.copies) {
            for attribute in copy.recompute {
                let owner = new.model.entities[attribute.declaringEntityIndex]
                recompute["\(owner.index).\(attribute.name)"] = (owner, attribute)
            }
        }
        for statement in DerivedRecomputeStatements(schema: mapping.newSchema).statements(for: Array(recompute.values)) {
            try connection.execute(statement)
        }
        try IndexMigration(connection: connection, schema: mapping.newSchema, hadAutoindexes: hadAutoindexes).apply()
        for trigger in triggers { try connection.execute(trigger) }
        try rewritePrimaryKeys(mapping)
        try HistoryMigration(mapping: mapping).apply(on: connection)
        if checksRequiredRelationships { try RequiredRelationships.check(new.model, schema: mapping.newSchema, on: connection) }

        var updated = try metadata.migrated(to: new.model, schema: mapping.newSchema,
                                            recordsFaultlineKeys: checks.recordsFaultlineKeys)
        record.write(into: &updated)
        try updated.write(on: connection)
        try checks.after(connection, new: new, schema: mapping.newSchema, leftovers: record)
        if let problem = try connection.firstForeignKeyViolation() {
            throw MigrationError.schemaMismatch(model: new.label, missing: [], unexpected: ["foreign key violation \(problem)"])
        }
    }

    /// Required attributes that would be left NULL: refuse before any change.
    private func checkRequiredValues(_ plans: [TablePlan]) throws {
        for copy in plans.flatMap(\.copies) {
            for check in copy.requiredChecks {
                let count = try MigrationStatements.nullCount(
                    in: copy.oldTable, entityNumber: copy.oldShared ? copy.oldEntity.number : nil, column: check.oldColumn,
                    on: connection)
                if count > 0 { throw MigrationError.missingDefault(entity: copy.newEntity.name, attribute: check.attribute, nullRows: count) }
            }
        }
    }

    /// Produces one entity table: created and filled, or changed in place.
    private func build(_ plan: TablePlan, oldName: (String) -> String, mapping: MigrationMapping) throws {
        let table = plan.table
        switch plan.mode {
        case .create:
            try connection.execute(table.createStatement)
            for copy in plan.copies {
                let columns = table.columns.map(\.name).filter { copy.values[$0] != nil }
                try MigrationStatements.copyRows(copy, into: table.name, columns: columns, from: oldName(copy.oldTable), on: connection)
                report(copy.newEntity.name, rows: connection.changes)
            }
        case .inPlace(let appended, let orphans):
            for column in appended {
                try connection.addColumn(named: column.name, declaredType: column.declaredType.rawValue, toTable: table.name)
            }
            let fixed: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
            for copy in plan.copies {
                var sets: [(column: String, value: ColumnValue)] = []
                for column in table.columns.map(\.name) where !fixed.contains(column) && !orphans.contains(column) {
                    if let value = copy.values[column] {
                        guard value != MigrationStatements.oldColumn(column) else { continue }
                        sets.append((column, value))
                    } else if copy.oldColumns.contains(column) {
                        sets.append((column, MigrationStatements.null))
                    }
                }
                guard !sets.isEmpty else { continue }
                try MigrationStatements.updateInPlace(copy, table: table.name, assignments: sets, on: connection)
                report(copy.newEntity.name, rows: connection.changes)
            }
            if !plan.removedEntityNumbers.isEmpty {
                try MigrationStatements.deleteRows(ofEntities: plan.removedEntityNumbers, from: table.name, on: connection)
            }
            let moves = plan.copies.filter { $0.oldEntity.number != $0.newEntity.number }
            if !moves.isEmpty {
                try MigrationStatements.renumberEntities(
                    in: table.name, moves.map { ($0.oldEntity.number, $0.newEntity.number) }, on: connection)
            }
        }
    }

    /// `Z<n>_<REL>` columns that had no old counterpart: read the destination's `Z_ENT`.
    private func fillEntityColumns(_ plan: TablePlan, schema: StoreSchema) throws {
        for copy in plan.copies {
            for fill in copy.entityColumnFills {
                try MigrationStatements.fillEntityColumn(
                    fill.entityColumn, keyColumn: fill.keyColumn, in: plan.table.name,
                    destinationTable: schema.entities[fill.destination].table, entityNumber: copy.newEntity.number, on: connection)
            }
        }
    }

    /// One `Z_PRIMARYKEY` row per new entity; each root keeps its highest key.
    private func rewritePrimaryKeys(_ mapping: MigrationMapping) throws {
        let oldMax = try BookkeepingStatements.keyCounters(on: connection)
        try BookkeepingStatements.deleteModelEntities(on: connection)
        for entity in mapping.new.model.entities {
            var max: Int64 = 0
            if entity.isRoot {
                for member in entity.hierarchyIndexes {
                    if let old = mapping.sourceEntity[member], let value = oldMax[old + 1] { max = Swift.max(max, value) }
                }
                let table = mapping.newSchema.entities[entity.index].table
                if let highest = try BookkeepingStatements.largestKey(inTable: table, on: connection) {
                    max = Swift.max(max, highest)
                }
            }
            try BookkeepingStatements.insertEntity(
                number: entity.number, name: entity.name, superNumber: entity.superentityIndex.map { $0 + 1 } ?? 0,
                keyMax: max, on: connection)
        }
    }

    /// The store must now hold exactly the new schema (less what is deferred).
    private func report(_ entity: String, rows: Int) {
        progress?(MigrationProgress(stage: stage, entity: entity, rowsDone: rows))
    }
}
