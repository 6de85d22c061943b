import FaultlineModel

/// Generates the triggers that keep derived attributes right inside SQLite.
///
/// For a derived attribute `D` of entity `E` in table `T`:
///  - `now()`: after every insert and update of an `E` row, `D` is set to
///    `NSCoreDataNow()`.
///  - a key path (`name`, `category.name`, `category.parent.name`), optionally
///    wrapped in `canonical:`/`lowercase:`/`uppercase:`: recomputed for the row
///    after it is inserted or its first key changes, and for every row that
///    reaches a changed, inserted or deleted row further along the path.
///  - an aggregate over a to-many kept as a key in the child table:
///    `@count`, `@sum` and `@avg` (through hidden running sum and count
///    columns) are maintained incrementally on insert, delete, reparenting and
///    change of the aggregated column; `@min`/`@max` incrementally on growth
///    and by recomputation (over the key's index) when a row leaves or shrinks;
///    over a many-to-many join table every change recomputes. The aggregates
///    over one to-many share their triggers (ParentUpdateTrigger).
///
/// The triggers never touch `Z_OPT`: derived values are read-only, so a change
/// to one is not a conflict for optimistic locking. SQLite's recursive
/// triggers stay off, so a trigger's own UPDATE never re-fires it.
struct DerivedAttributeTriggers {
    let model: CheckedModel
    let mappings: [EntityMapping]

    /// The attribute being maintained and where it lives.
    struct Target {
        let entity: CheckedEntity
        let attribute: CheckedAttribute
        let mapping: EntityMapping
        let column: String

        var table: String { mapping.table }
        var prefix: String { "\(StoreTrigger.namePrefix)\(mapping.table)_\(column)" }

        /// `<row>.Z_ENT IN (…)` when other entities share the table.
        func rowFilter(_ row: String) -> String? { mapping.entityFilter(alias: row) }

        /// ` AND Z_ENT IN (…)` for an UPDATE of `T`, when the table is shared.
        var updateFilter: String { mapping.entityFilter(alias: nil).map { " AND \($0)" } ?? "" }

        func error(_ reason: String) -> SchemaError {
            SchemaError(entity: entity.name, attribute: attribute.name, reason: reason)
        }
    }

    func triggers() throws(SchemaError) -> [StoreTrigger] {
        var result: [StoreTrigger] = []
        var aggregates: [ParentUpdateTrigger] = []
        for entity in model.entities {
            let mapping = mappings[entity.index]
            for attribute in entity.attributes where attribute.declaringEntityIndex == entity.index {
                guard let derivation = attribute.derivation,
                      let column = mapping.column(forAttributeAt: attribute.index) else { continue }
                let target = Target(entity: entity, attribute: attribute, mapping: mapping, column: column)
                if let copied = derivation.copiedKeyPath {
                    result += try KeyPathTriggers(model: model, mappings: mappings, target: target, function: copied.function)
                        .triggers(copied.path)
                    continue
                }
                switch derivation {
                case .now:
                    result += nowTriggers(target)
                case .keyPath, .canonical, .lowercase, .uppercase:
                    break
                case let .aggregate(function, relationship, attribute):
                    aggregates += try AggregateTriggers(model: model, mappings: mappings, target: target)
                        .triggers(function: function, relationship: relationship, attribute: attribute)
                }
            }
        }
        return result + ParentUpdateTrigger.merged(aggregates)
    }

    private func nowTriggers(_ target: Target) -> [StoreTrigger] {
        let body = ["UPDATE \(target.table) SET \(target.column) = \(StoreFunctions.now)() WHERE Z_PK = NEW.Z_PK"]
        return [
            Self.trigger("\(target.prefix)_INSERT", "INSERT", target.table, when: target.rowFilter("NEW"), body),
            Self.trigger("\(target.prefix)_UPDATE", "UPDATE", target.table, when: target.rowFilter("NEW"), body),
        ]
    }

    /// `CREATE TRIGGER <name> AFTER <event> ON <table> FOR EACH ROW [WHEN …] BEGIN …; END`.
    static func trigger(
        _ name: String, _ event: String, _ table: String, when condition: String?, _ body: [String],
        standIn: InsertStandIn? = nil
    ) -> StoreTrigger {
        let when = condition.map { " WHEN \($0)" } ?? ""
        let statements = body.map { "    \($0);\n" }.joined()
        return StoreTrigger(
            name: name,
            createStatement: "CREATE TRIGGER \(name) AFTER \(event) ON \(table) FOR EACH ROW\(when)\nBEGIN\n\(statements)END",
            table: table, event: event, standIn: standIn)
    }
}
