import FaultlineModel

/// Triggers for a derived attribute that copies (and maybe folds) a value
/// reached through to-one relationships: `categoryName = category.name`,
/// `searchName = canonical:(name)`.
struct KeyPathTriggers {
    let model: CheckedModel
    let mappings: [EntityMapping]
    let target: DerivedAttributeTriggers.Target
    /// The SQL function applied to the value, if any.
    let function: String?

    /// One to-one step: the key column in the current table and the table it leads to.
    private struct Hop {
        let keyColumn: String
        let destinationTable: String
    }

    func triggers(_ path: [String]) throws(SchemaError) -> [StoreTrigger] {
        let (hops, finalColumn) = try resolve(path)
        let table = target.table
        let write = "UPDATE \(table) SET \(target.column) = \(value(hops: hops, finalColumn: finalColumn))"
        let ownRow = "\(write) WHERE Z_PK = NEW.Z_PK"
        let firstColumn = hops.first?.keyColumn ?? finalColumn
        // From the row's own column: nothing to do when the value is already
        // right, as it is after Faultline's own statements (RowDerivation).
        let stale = hops.isEmpty ? "NEW.\(target.column) IS NOT \(applied("NEW.\(finalColumn)"))" : nil
        let when = [target.rowFilter("NEW"), stale].compactMap { $0 }.joined(separator: " AND ")
        // Faultline's INSERT computes a row derivation from a stored source
        // itself (RowDerivation), so the trigger has nothing to do for it.
        let computed = hops.isEmpty && target.entity.attribute(named: path.joined(separator: "."))?.isDerived == false
        var result = [
            DerivedAttributeTriggers.trigger(
                "\(target.prefix)_INSERT", "INSERT", table, when: when.isEmpty ? nil : when, [ownRow],
                standIn: computed ? .computedByStatement : nil),
            DerivedAttributeTriggers.trigger(
                "\(target.prefix)_UPDATE_\(firstColumn)", "UPDATE OF \(firstColumn)", table,
                when: when.isEmpty ? nil : when, [ownRow]),
        ]
        // A change further along the path: re-evaluate every row that reaches it.
        for (position, hop) in hops.enumerated() {
            let watched = position + 1 < hops.count ? hops[position + 1].keyColumn : finalColumn
            let hopTable = hop.destinationTable
            func reaching(_ key: String) -> String {
                "\(write) WHERE \(reachCondition(hops: hops, upTo: position, key: key))\(target.updateFilter)"
            }
            let name = "\(target.prefix)_\(position + 1)_\(hopTable)"
            result += [
                DerivedAttributeTriggers.trigger(
                    "\(name)_UPDATE_\(watched)", "UPDATE OF \(watched)", hopTable, when: nil, [reaching("NEW.Z_PK")]),
                DerivedAttributeTriggers.trigger("\(name)_INSERT", "INSERT", hopTable, when: nil, [reaching("NEW.Z_PK")]),
                DerivedAttributeTriggers.trigger("\(name)_DELETE", "DELETE", hopTable, when: nil, [reaching("OLD.Z_PK")]),
            ]
        }
        return result
    }

    /// Walks `path` from the target entity through to-one relationships to an
    /// attribute (a composite leaf's key path included).
    private func resolve(_ path: [String]) throws(SchemaError) -> ([Hop], String) {
        var entity = target.entity
        var hops: [Hop] = []
        var position = 0
        while position < path.count {
            let rest = path[position...].joined(separator: ".")
            let mapping = mappings[entity.index]
            if let attribute = entity.attribute(named: rest) {
                guard let column = mapping.column(forAttributeAt: attribute.index) else {
                    throw target.error("\(rest) is transient and has no column to derive from")
                }
                return (hops, column)
            }
            guard let relationship = entity.relationship(named: path[position]) else {
                throw target.error("\(entity.name) has no attribute or relationship \(path[position])")
            }
            guard case .foreignKey(let column, _) = mapping.relationships[relationship.index] else {
                throw target.error("\(path[position]) is not a stored to-one relationship")
            }
            let destination = model.entities[relationship.destinationEntityIndex]
            hops.append(Hop(keyColumn: column, destinationTable: mappings[destination.index].table))
            entity = destination
            position += 1
        }
        throw target.error("\(path.joined(separator: ".")) does not end at an attribute")
    }

    /// The derived value for the row being updated in the target table.
    private func value(hops: [Hop], finalColumn: String) -> String {
        var expression: String
        if hops.isEmpty {
            expression = "\(target.table).\(finalColumn)"
        } else {
            // key: the Z_PK reached after each hop, built inside out.
            var key = "\(target.table).\(hops[0].keyColumn)"
            for (index, hop) in hops.enumerated().dropFirst() {
                let alias = "t\(index)"
                key = "(SELECT \(alias).\(hop.keyColumn) FROM \(hops[index - 1].destinationTable) \(alias) WHERE \(alias).Z_PK = \(key))"
            }
            let alias = "t\(hops.count)"
            let last = hops[hops.count - 1].destinationTable
            expression = "(SELECT \(alias).\(finalColumn) FROM \(last) \(alias) WHERE \(alias).Z_PK = \(key))"
        }
        return applied(expression)
    }

    private func applied(_ expression: String) -> String {
        function.map { "\($0)(\(expression))" } ?? expression
    }

    /// Rows of the target table whose path reaches `key` after hop `position`.
    private func reachCondition(hops: [Hop], upTo position: Int, key: String) -> String {
        var condition = "\(hops[position].keyColumn) = \(key)"
        var index = position
        while index > 0 {
            condition = "\(hops[index - 1].keyColumn) IN (SELECT Z_PK FROM \(hops[index - 1].destinationTable) WHERE \(condition))"
            index -= 1
        }
        return condition
    }
}
