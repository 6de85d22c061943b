/// One update of a row's derived columns:
/// `UPDATE T SET a = …, b = … WHERE <condition>`.
struct ParentUpdate: Hashable {
    let table: String
    var assignments: [String]
    let condition: String

    var sql: String { "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(condition)" }
}

/// A trigger maintaining aggregates (`@count`, `@sum`, …) over a to-many:
/// its body updates the parent rows the changed child row belongs to.
///
/// The aggregates kept over one to-many each make such triggers, fired by the
/// same event on the same rows; those become one trigger updating every column
/// at once, so an inserted article costs its category one UPDATE instead of one
/// per derived attribute (and SQLite one trigger program instead of several).
/// SQLite evaluates every SET expression on the row as it was before the
/// update, and each expression reads only its own attribute's columns, so the
/// merged update equals the separate ones run in sequence.
struct ParentUpdateTrigger {
    /// The trigger's name when it stays alone (`Z_DA_<T>_<column>_…`).
    let name: String
    /// Its name once merged: the event and rows without the column
    /// (`Z_DA_<T>_<child>_<link>_INSERT`).
    let mergedName: String
    let event: String
    let table: String
    let when: String?
    let body: [ParentUpdate]
    /// What does the same for many inserted children at once.
    var standIn: InsertStandIn? = nil

    /// Triggers that fire on the same event and rows and update the same
    /// parents merge into one, named `mergedName`; the rest keep their own.
    static func merged(_ triggers: [ParentUpdateTrigger]) -> [StoreTrigger] {
        struct Key: Hashable {
            let mergedName: String
            let event: String
            let table: String
            let when: String?
            let targets: [String]
        }
        func key(_ trigger: ParentUpdateTrigger) -> Key {
            Key(mergedName: trigger.mergedName, event: trigger.event, table: trigger.table, when: trigger.when,
                targets: trigger.body.map { "\($0.table) \($0.condition)" })
        }
        var order: [Key] = []
        var groups: [Key: [ParentUpdateTrigger]] = [:]
        for trigger in triggers {
            let key = key(trigger)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(trigger)
        }
        // A merged name two different groups would share is not used.
        var groupsPerName: [String: Int] = [:]
        for key in order { groupsPerName[key.mergedName, default: 0] += 1 }
        return order.flatMap { key -> [StoreTrigger] in
            let members = groups[key] ?? []
            guard members.count > 1, groupsPerName[key.mergedName] == 1 else { return members.map(\.storeTrigger) }
            var body = members[0].body
            var standIn = members[0].standIn
            for member in members.dropFirst() {
                for index in body.indices { body[index].assignments += member.body[index].assignments }
                standIn = standIn.flatMap { $0.merged(with: member.standIn) }
            }
            return [DerivedAttributeTriggers.trigger(key.mergedName, key.event, key.table, when: key.when, body.map(\.sql),
                                                     standIn: standIn)]
        }
    }

    private var storeTrigger: StoreTrigger {
        DerivedAttributeTriggers.trigger(name, event, table, when: when, body.map(\.sql), standIn: standIn)
    }
}
