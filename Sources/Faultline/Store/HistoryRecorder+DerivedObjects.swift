import FaultlineSQLite

// Objects a commit did not touch whose derived attributes its triggers
// recomputed: the owner of a count or sum over a to-many whose members were
// inserted, deleted or changed, the holder of a key path through a to-one
// whose destination changed. Core Data's history names the changed derived
// attribute; Faultline records them as updates of those objects naming it.
//
// Found with one statement per derivation a commit reaches — never when none
// does — from the rows: a delete's owners before its rows go (`begin`), the
// rest once the commit's rows are written (`finish`).

extension HistoryRecorder {
    /// A derived attribute that reads another entity's rows.
    struct ForeignDerivation: Sendable {
        enum Reach: Sendable {
            /// An aggregate over a to-many: the owners of changed member rows.
            case owners(memberTable: String, ownerColumn: String, ownerTable: String)
            /// A key path through a to-one: the rows pointing at changed ones.
            case referrers(table: String, column: String)
        }

        /// The entities whose rows it reads (the destination and its sub-entities).
        let sourceEntities: Set<Int>
        /// By source entity index, the slot of the attribute it reads; empty
        /// for a count, which only inserts and deletes change.
        let sourceSlots: [Int: Int]
        /// The derived attribute's index (the same in the entity's sub-entities).
        let derivedAttribute: Int
        /// The entity holding it and its sub-entities.
        let dependentEntities: Set<Int>
        let reach: Reach

        var countsRows: Bool {
            if case .owners = reach { return true }
            return false
        }
    }

    static func foreignDerivations(in model: CheckedModel, plans: [EntityStorePlan],
                                   layouts: [HistoryEntityLayout]) -> [ForeignDerivation] {
        var found: [ForeignDerivation] = []
        for entity in model.entities {
            for attribute in entity.attributes where attribute.declaringEntityIndex == entity.index {
                guard let derivation = attribute.derivation else { continue }
                let through: String
                let read: String?
                switch derivation {
                case .aggregate(_, let relationship, let attribute):
                    (through, read) = (relationship, attribute)
                case .keyPath(let path), .canonical(let path), .lowercase(let path), .uppercase(let path):
                    guard path.count == 2 else { continue }
                    (through, read) = (path[0], path[1])
                case .now:
                    continue
                }
                guard let relationship = entity.relationship(named: through) else { continue }
                let source = model.entities[relationship.destinationEntityIndex]
                let reach: ForeignDerivation.Reach
                switch (derivation, plans[entity.index].mapping.relationships[relationship.index]) {
                case (.aggregate, .destinationKey(let table, let column, _, _)):
                    reach = .owners(memberTable: table, ownerColumn: column, ownerTable: plans[entity.index].mapping.table)
                case (.aggregate, _):
                    continue  // A many-to-many's owners are in its join table; not followed.
                case (_, .foreignKey(let column, _)):
                    reach = .referrers(table: plans[entity.index].mapping.table, column: column)
                default:
                    continue
                }
                var slots: [Int: Int] = [:]
                if let read {
                    for index in source.hierarchyIndexes {
                        guard case .attribute(let attributeIndex)? = model.entities[index].propertyByName[read] else { continue }
                        slots[index] = layouts[index].attributeSlots[attributeIndex]
                    }
                }
                found.append(ForeignDerivation(
                    sourceEntities: Set(source.hierarchyIndexes), sourceSlots: slots, derivedAttribute: attribute.index,
                    dependentEntities: Set(entity.hierarchyIndexes), reach: reach))
            }
        }
        return found
    }

    /// The owners whose aggregates the deletion of `deleted` changes, read
    /// while the rows are still there.
    func objectsDerivingFrom(deleted: [ManagedObjectID], on connection: Connection) throws -> [ManagedObjectID: Set<Int>] {
        var found: [ManagedObjectID: Set<Int>] = [:]
        for derivation in foreignDerivations where derivation.countsRows {
            let keys = deleted.filter { derivation.sourceEntities.contains($0.entityIndex) }.map(\.primaryKey)
            try note(derivation, keys: keys, ranges: [], into: &found, on: connection)
        }
        return found
    }

    /// The objects whose derived attributes the inserts and updates change,
    /// read once the rows are written.
    func objectsDerivingFrom(inserted: [(entityIndex: Int, keys: ClosedRange<Int64>)], updated: [(id: ManagedObjectID, slots: [Int])],
                             on connection: Connection) throws -> [ManagedObjectID: Set<Int>] {
        var found: [ManagedObjectID: Set<Int>] = [:]
        for derivation in foreignDerivations {
            var keys: [Int64] = []
            for (id, slots) in updated {
                guard derivation.sourceEntities.contains(id.entityIndex), let read = derivation.sourceSlots[id.entityIndex],
                      slots.contains(read) else { continue }
                keys.append(id.primaryKey)
            }
            let ranges = derivation.countsRows
                ? inserted.filter { derivation.sourceEntities.contains($0.entityIndex) }.map(\.keys) : []
            try note(derivation, keys: keys, ranges: ranges, into: &found, on: connection)
        }
        return found
    }

    private func note(_ derivation: ForeignDerivation, keys: [Int64], ranges: [ClosedRange<Int64>],
                      into found: inout [ManagedObjectID: Set<Int>], on connection: Connection) throws {
        var rows: [(key: Int64, entityNumber: Int64)] = []
        if !keys.isEmpty {
            rows += try HistoryStatements.dependents(of: derivation.reach, keys: keys, on: connection)
        }
        for range in ranges { rows += try HistoryStatements.dependents(of: derivation.reach, range: range, on: connection) }
        for row in rows {
            let entityIndex = Int(row.entityNumber) - 1
            guard derivation.dependentEntities.contains(entityIndex) else { continue }
            let id = ManagedObjectID(storeIdentifier: storeIdentifier, entityIndex: entityIndex, primaryKey: row.key)
            found[id, default: []].insert(layouts[entityIndex].attributeSlots[derivation.derivedAttribute])
        }
    }

    /// The commit's updates with `derived` merged in: an object already
    /// updated gets the derived slots added, one inserted or deleted by the
    /// commit gets nothing, any other one an update of its own.
    func withDerivedObjects(_ commit: HistoryCommit, _ derived: [ManagedObjectID: Set<Int>]) -> [(id: ManagedObjectID, slots: [Int])] {
        guard !derived.isEmpty else { return commit.updated }
        var updated = commit.updated
        var remaining = derived
        for index in updated.indices {
            guard let slots = remaining.removeValue(forKey: updated[index].id) else { continue }
            updated[index].slots = Array(Set(updated[index].slots).union(slots)).sorted()
        }
        let deleted = Set(commit.deleted)
        for (id, slots) in remaining.sorted(by: { ($0.key.entityIndex, $0.key.primaryKey) < ($1.key.entityIndex, $1.key.primaryKey) }) {
            if deleted.contains(id) { continue }
            let root = rootEntityIndexes[id.entityIndex]
            if commit.insertedRanges.contains(where: { rootEntityIndexes[$0.entityIndex] == root && $0.keys.contains(id.primaryKey) }) {
                continue
            }
            updated.append((id, slots.sorted()))
        }
        return updated
    }
}
