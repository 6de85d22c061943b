import Foundation
import FaultlineSQLite

/// The statement of one batch insert, built once before the first row: which
/// parameter each written column takes, the defaults, and the SQL text.
///
/// Parameters are numbered: `?1` `Z_PK`, `?2` `Z_ENT`, `?3` `Z_OPT`, then one
/// per written column in the entity's written-column order (a to-one whose
/// destination has sub-entities takes two: key and `Z_ENT`; a looked-up to-one
/// takes one, used by both subselects), then, for the per-column upsert, one
/// flag per column.
struct BatchInsertPlan {
    struct Slot {
        enum Kind {
            case attribute(index: Int, type: AttributeType)
            /// To-one by object ID; `hasEntityColumn` when `Z<n>_<REL>` is written too.
            case toOne(index: Int, destination: Int, hasEntityColumn: Bool)
            /// To-one by the destination's unique key of type `keyType`.
            case lookup(index: Int, keyType: AttributeType)
        }
        let kind: Kind
        let name: String
        let parameter: Int32
        /// The per-row "was set" flag of the per-column upsert, else 0.
        let flagParameter: Int32
        let defaultValue: AttributeValue
        let isRequired: Bool
        let rules: [ValidationRule]
        /// Column names, for the upsert's SET list.
        let columns: [String]
        /// A binary attribute the store keeps in Core Data's external-storage
        /// form: its bytes are bound after marker 1 (inline, as the store's
        /// adapter writes them in a Faultline store).
        var marked = false
    }

    let entityIndex: Int
    let entityName: String
    let slots: [Slot]
    /// Slot by attribute index / relationship index (-1: not written).
    let slotOfAttribute: [Int32]
    let slotOfRelationship: [Int32]
    /// Slot by property name, for the dictionary forms.
    let slotByName: [String: Int]
    /// The entity's composites by name (dotted when nested): a dictionary
    /// form may give one whole, as `[element: value]`.
    let compositeNames: Set<String>
    let sql: String
    let isUpsert: Bool
    /// Per slot, which entity indexes a to-one by ID accepts (its destination's hierarchy).
    let destinations: [[Bool]]
    /// Uniqueness constraints as (columns, property names), to name a failure.
    let constraints: [(columns: [String], names: [String])]

    init(_ request: BatchInsertRequest, store: StoreWriteAccess) {
        let entity = request.entity
        let plan = store.plans[entity.index]
        let model = store.model
        var slots: [Slot] = []
        var slotOfAttribute = [Int32](repeating: -1, count: entity.attributes.count)
        var slotOfRelationship = [Int32](repeating: -1, count: entity.relationships.count)
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var values = ["?1", "?2", "?3"]
        var next: Int32 = 4
        for written in plan.writtenColumns {
            switch written {
            case .attribute(let index, let column):
                let attribute = entity.attributes[index]
                slotOfAttribute[index] = Int32(slots.count)
                slots.append(Slot(kind: .attribute(index: index, type: attribute.attributeType), name: attribute.name,
                                  parameter: next, flagParameter: 0, defaultValue: attribute.defaultValue ?? .null,
                                  isRequired: !attribute.isOptional, rules: attribute.validationRules, columns: [column],
                                  marked: store.markedAttributes.contains(entityIndex: entity.index, attributeIndex: index)))
                columns.append(column)
                values.append("?\(next)")
                next += 1
            case .toOne(let index, let column, let entityColumn):
                let relationship = entity.relationships[index]
                slotOfRelationship[index] = Int32(slots.count)
                var slotColumns = [column]
                let kind: Slot.Kind
                if let keyIndex = request.lookups[index] {
                    let destination = model.entities[relationship.destinationEntityIndex]
                    let destinationMapping = store.schema.entities[destination.index]
                    let keyColumn = destinationMapping.column(forAttributeAt: keyIndex) ?? "Z_PK"
                    let filter = destinationMapping.entityFilter(alias: nil).map { " AND \($0)" } ?? ""
                    let lookup = "FROM \(destinationMapping.table) WHERE \(keyColumn) = ?\(next)\(filter)"
                    values.append("(SELECT Z_PK \(lookup))")
                    if entityColumn != nil { values.append("(SELECT Z_ENT \(lookup))") }
                    kind = .lookup(index: index, keyType: destination.attributes[keyIndex].attributeType)
                } else {
                    values.append("?\(next)")
                    if entityColumn != nil { values.append("?\(next + 1)") }
                    kind = .toOne(index: index, destination: relationship.destinationEntityIndex,
                                  hasEntityColumn: entityColumn != nil)
                }
                columns.append(column)
                if let entityColumn {
                    columns.append(entityColumn)
                    slotColumns.append(entityColumn)
                }
                slots.append(Slot(kind: kind, name: relationship.name, parameter: next, flagParameter: 0,
                                  defaultValue: .null, isRequired: !relationship.isOptional, rules: [],
                                  columns: slotColumns))
                if case .toOne = kind, entityColumn != nil { next += 2 } else { next += 1 }
            }
        }
        for derivation in plan.rowDerivations {
            let slot = slotOfAttribute[derivation.sourceAttributeIndex]
            guard slot >= 0 else { continue }
            columns.append(derivation.column)
            values.append(derivation.value(of: "?\(slots[Int(slot)].parameter)"))
        }
        if request.conflictPolicy == .updateSetColumns {
            slots = slots.map { slot in
                defer { next += 1 }
                return Slot(kind: slot.kind, name: slot.name, parameter: slot.parameter, flagParameter: next,
                            defaultValue: slot.defaultValue, isRequired: slot.isRequired, rules: slot.rules,
                            columns: slot.columns, marked: slot.marked)
            }
        }
        var byName: [String: Int] = [:]
        for (offset, slot) in slots.enumerated() { byName[slot.name] = offset }

        let uniqueIndexes = store.schema.indexes.filter { $0.isUnique && $0.table == plan.table }
        var constraints: [(columns: [String], names: [String])] = []
        for constraint in entity.uniquenessConstraints {
            let constrained = constraint.flatMap { plan.mapping.columns(of: $0, in: entity) }
            let names = constraint.map { entity.name(of: $0) ?? "?" }
            if !constrained.isEmpty { constraints.append((constrained, names)) }
        }

        var sql = "INSERT OR FAIL INTO \(plan.table)(\(columns.joined(separator: ", "))) VALUES(\(values.joined(separator: ", ")))"
        let isUpsert = request.conflictPolicy != .fail && !constraints.isEmpty
        if isUpsert {
            for constraint in constraints {
                // The target must name the unique index's columns (and its WHERE for a sub-entity's).
                let index = uniqueIndexes.first { index in
                    index.terms.map { $0.split(separator: " ").first.map(String.init) ?? $0 } == constraint.columns
                }
                sql += " ON CONFLICT (\(constraint.columns.joined(separator: ", ")))"
                if let filter = index?.whereClause { sql += " WHERE \(filter)" }
                sql += Self.conflictAction(request.conflictPolicy, slots: slots)
            }
            sql += " RETURNING Z_PK, Z_ENT"
        }
        self.destinations = slots.map { slot in
            guard case .toOne(_, let destination, _) = slot.kind else { return [] }
            var accepted = [Bool](repeating: false, count: model.entities.count)
            for member in model.entities[destination].hierarchyIndexes { accepted[member] = true }
            return accepted
        }
        self.entityIndex = entity.index
        self.entityName = entity.name
        self.slots = slots
        self.slotOfAttribute = slotOfAttribute
        self.slotOfRelationship = slotOfRelationship
        self.slotByName = byName
        self.compositeNames = Set(entity.composites.map(\.name))
        self.sql = isUpsert || !request.lookups.isEmpty ? sql : plan.insertSQL
        self.isUpsert = isUpsert
        self.constraints = constraints
    }

    private static func conflictAction(_ policy: BatchConflictPolicy, slots: [Slot]) -> String {
        var assignments: [String] = []
        switch policy {
        case .keepStored, .fail:
            return " DO NOTHING"
        case .objectTrump:
            for slot in slots { for column in slot.columns { assignments.append("\(column) = excluded.\(column)") } }
        case .updateSetColumns:
            for slot in slots {
                for column in slot.columns {
                    assignments.append("\(column) = CASE WHEN ?\(slot.flagParameter) THEN excluded.\(column) ELSE \(column) END")
                }
            }
        }
        assignments.append("Z_OPT = Z_OPT + 1")
        return " DO UPDATE SET \(assignments.joined(separator: ", "))"
    }

    @inline(__always)
    func acceptsDestination(_ entityIndex: Int, slot: Int) -> Bool {
        destinations[slot].indices.contains(entityIndex) && destinations[slot][entityIndex]
    }

    /// The constraint a `UNIQUE constraint failed: T.A, T.B` message names.
    func constraint(named message: String) -> [String] {
        let columns = Self.uniqueColumns(in: message)
        return constraints.first { $0.columns == columns }?.names ?? columns
    }

    /// The columns a `UNIQUE constraint failed: T.A, T.B` message names (A, B).
    static func uniqueColumns(in message: String) -> [String] {
        guard let range = message.range(of: "failed: ") else { return [] }
        return message[range.upperBound...].split(separator: ",").map { part -> String in
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            return trimmed.split(separator: ".").last.map(String.init) ?? trimmed
        }
    }
}
