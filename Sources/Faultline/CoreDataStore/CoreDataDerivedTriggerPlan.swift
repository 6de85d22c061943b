import Foundation
import FaultlineSQLite

/// The triggers a Core Data store gets back after Faultline migrates it:
/// Core Data's own, never Faultline's (whose functions a Core Data app does
/// not have). Decided before any byte changes, from the store's triggers and
/// the two models:
///
/// - a derived attribute whose Core Data form is known
///   (`CoreDataDerivationTriggers`) gets it, written for the new schema;
/// - any other trigger the store has is kept, text unchanged, when it still
///   means the same thing: for a derived attribute, the same entity and
///   attribute names and the same derivation; and every table its text names
///   is created by exactly the same statement in the new schema, holding
///   entities with the same numbers;
/// - a derived attribute that is gone or whose derivation changed loses its
///   old triggers;
/// - anything else — a derivation of unknown form that is new or changed, a
///   kept trigger over a table the migration changes — refuses the migration
///   with the reason (`MigrationError.coreDataStoreUnsupported`).
struct CoreDataDerivedTriggerPlan {
    let statements: [String]

    init(mapping: MigrationMapping, existing: [SchemaObject]) throws {
        var generated: [StoreTrigger] = []
        var retired = Set<String>()  // names of existing triggers of derivations that are gone
        for entity in mapping.new.model.entities {
            for attribute in entity.attributes where attribute.derivation != nil && attribute.declaringEntityIndex == entity.index {
                let key = "\(entity.name).\(attribute.name)"
                let old = mapping.oldAttribute(attribute, of: entity)
                let oldEntity = mapping.sourceEntity[entity.index].map { mapping.old.model.entities[$0] }
                let unchanged = old?.derivation == attribute.derivation && old?.name == attribute.name
                    && oldEntity?.name == entity.name
                if let triggers = CoreDataDerivationTriggers.triggers(for: attribute, of: entity, in: mapping.newSchema) {
                    generated += triggers
                    if let old, let oldEntity { retired.formUnion(Self.triggerNames(of: old.name, in: oldEntity.name, existing)) }
                } else if !unchanged || Self.triggerNames(of: attribute.name, in: entity.name, existing).isEmpty {
                    // (An unchanged one keeps its triggers below, if their tables allow.)
                    let what = old == nil ? "is new" : unchanged ? "has no Core Data triggers in the store to keep" : "changed"
                    throw MigrationError.coreDataStoreUnsupported(reason: "derived attribute \(key) = \(attribute.derivation.map { "\($0)" } ?? "") "
                        + "\(what), and Core Data's trigger text for such a derivation is not known from any store Core Data "
                        + "wrote (only `@count` over a to-many with a to-one inverse is)")
                }
            }
        }
        for entity in mapping.old.model.entities {
            for attribute in entity.attributes where attribute.derivation != nil && attribute.declaringEntityIndex == entity.index {
                let stays = mapping.targetEntity[entity.index].map { mapping.new.model.entities[$0] }.map { newEntity in
                    newEntity.name == entity.name && newEntity.attribute(named: attribute.name)?.derivation == attribute.derivation
                } ?? false
                if !stays { retired.formUnion(Self.triggerNames(of: attribute.name, in: entity.name, existing)) }
            }
        }
        var statements = generated.map(\.createStatement)
        let generatedNames = Set(generated.map(\.name))
        let newTables = Dictionary(mapping.newSchema.tables.map { ($0.name.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for trigger in existing where !retired.contains(trigger.name) && !generatedNames.contains(trigger.name) {
            guard let sql = trigger.sql else { continue }
            if let problem = Self.changedTable(named: sql, mapping: mapping, newTables: newTables) {
                throw MigrationError.coreDataStoreUnsupported(
                    reason: "the store's trigger \(trigger.name) names table \(problem), which the migration changes, "
                        + "and Faultline does not rewrite Core Data's triggers")
            }
            statements.append(sql)
        }
        self.statements = statements
    }

    /// The existing `Z_DA_…` triggers of `entity.attribute`: Core Data names
    /// them `Z_DA_<table the trigger is on>_<Entity>_<attribute>_<event>`.
    private static func triggerNames(of attribute: String, in entity: String, _ existing: [SchemaObject]) -> Set<String> {
        Set(existing.filter { $0.name.hasPrefix("Z_DA_\($0.table)_\(entity)_\(attribute)_") }.map(\.name))
    }

    /// A table `sql` names whose statement or entities differ between the
    /// old and new schema; nil when every table it names is as it was.
    private static func changedTable(named sql: String, mapping: MigrationMapping, newTables: [String: StoreTable]) -> String? {
        let words = Set(sql.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map { $0.uppercased() })
        for table in mapping.oldSchema.tables where words.contains(table.name.uppercased()) {
            guard let now = newTables[table.name.uppercased()], now.createStatement == table.createStatement else { return table.name }
            let oldNumbers = mapping.old.model.entities.filter { mapping.oldSchema.entities[$0.index].table == table.name }
                .map { "\($0.name):\($0.number)" }.sorted()
            let newNumbers = mapping.new.model.entities.filter { mapping.newSchema.entities[$0.index].table == now.name }
                .map { "\($0.name):\($0.number)" }.sorted()
            if oldNumbers != newNumbers { return table.name }
        }
        return nil
    }
}
