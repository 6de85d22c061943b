import FaultlineModel

/// Triggers for a derived aggregate over a to-many relationship:
/// `articlesCount = articles.@count`, `totalViews = articles.@sum.views`,
/// `@min`, `@max`, `@avg`.
struct AggregateTriggers {
    let model: CheckedModel
    let mappings: [EntityMapping]
    let target: DerivedAttributeTriggers.Target

    func triggers(
        function: AggregateFunction, relationship name: String, attribute: String?
    ) throws(SchemaError) -> [ParentUpdateTrigger] {
        guard let relationship = target.entity.relationship(named: name), relationship.isToMany else {
            throw target.error("\(name) is not a to-many relationship of \(target.entity.name)")
        }
        let destination = model.entities[relationship.destinationEntityIndex]
        let destinationMapping = mappings[destination.index]
        var valueColumn: String?
        var valueType: AttributeType?
        if let attribute {
            guard let leaf = destination.attribute(named: attribute),
                  let column = destinationMapping.column(forAttributeAt: leaf.index) else {
                throw target.error("\(destination.name).\(attribute) is not a stored attribute")
            }
            valueColumn = column
            valueType = leaf.attributeType
        }
        switch target.mapping.relationships[relationship.index] {
        case let .destinationKey(table, column, _, _):
            return keyed(function, child: table, link: column, value: valueColumn, valueType: valueType)
        case let .joinTable(table, sourceColumn, destinationColumn, _):
            return joined(function, join: table, parentColumn: sourceColumn, childColumn: destinationColumn,
                          child: destinationMapping.table, value: valueColumn)
        case .foreignKey, .transient:
            throw target.error("\(name) is not stored as a to-many")
        }
    }

    /// The aggregate over the rows selected by `rows` (a FROM … WHERE clause
    /// whose child alias is `c`).
    private func aggregate(_ function: AggregateFunction, value: String?, _ rows: String) -> String {
        let column = "c.\(value ?? "Z_PK")"
        switch function {
        case .count: return "(SELECT COUNT(\(column)) \(rows))"
        case .sum: return "(SELECT COALESCE(SUM(\(column)), 0) \(rows))"
        case .min: return "(SELECT MIN(\(column)) \(rows))"
        case .max: return "(SELECT MAX(\(column)) \(rows))"
        case .avg: return "(SELECT AVG(\(column)) \(rows))"
        }
    }

    private func set(_ expression: String, forParent parent: String) -> ParentUpdate {
        update(["\(target.column) = \(expression)"], where: "Z_PK = \(parent)\(target.updateFilter)")
    }

    private func update(_ assignments: [String], where condition: String) -> ParentUpdate {
        ParentUpdate(table: target.table, assignments: assignments, condition: condition)
    }

    /// A trigger named `Z_DA_<T>_<column>_<suffix>` alone, `Z_DA_<T>_<suffix>` merged.
    private func trigger(
        _ suffix: String, _ event: String, _ table: String, when: String?, _ body: [ParentUpdate],
        standIn: InsertStandIn? = nil
    ) -> ParentUpdateTrigger {
        ParentUpdateTrigger(name: "\(target.prefix)_\(suffix)", mergedName: "\(StoreTrigger.namePrefix)\(target.table)_\(suffix)",
                            event: event, table: table, when: when, body: body, standIn: standIn)
    }

    /// The parent's own INSERT trigger, `recompute` given the new row's key,
    /// and its stand-in: the same assignments for every new parent at once.
    private func parentInsert(reading sources: [String], _ recompute: (String) -> ParentUpdate) -> ParentUpdateTrigger {
        let standIn = InsertedParentsRecompute(
            table: target.table, filter: target.updateFilter, assignments: recompute("\(target.table).Z_PK").assignments,
            sources: sources)
        return trigger("INSERT", "INSERT", target.table, when: target.rowFilter("NEW"), [recompute("NEW.Z_PK")],
                       standIn: .recomputed(standIn))
    }

    // MARK: Children holding a key to the parent

    private func keyed(
        _ function: AggregateFunction, child: String, link: String, value: String?, valueType: AttributeType?
    ) -> [ParentUpdateTrigger] {
        let d = target.column
        let rows = { (parent: String) in "FROM \(child) c WHERE c.\(link) = \(parent)" }
        func recompute(_ parent: String) -> ParentUpdate {
            guard function == .avg, let value else {
                return set(aggregate(function, value: value, rows(parent)), forParent: parent)
            }
            return update([
                "\(AverageColumns.sum(of: d)) = \(aggregate(.sum, value: value, rows(parent)))",
                "\(AverageColumns.count(of: d)) = \(aggregate(.count, value: value, rows(parent)))",
                "\(d) = \(aggregate(.avg, value: value, rows(parent)))",
            ], where: "Z_PK = \(parent)\(target.updateFilter)")
        }
        /// Moves an average's running sum and count by the given signed deltas
        /// (`+ x - y`); SQLite
        /// evaluates every SET expression on the old row, so the average is
        /// written from the old sum and count plus the deltas.
        func average(sumDelta: String, countDelta: String, parent: String) -> ParentUpdate {
            let sum = AverageColumns.sum(of: d)
            let count = AverageColumns.count(of: d)
            let newSum = "COALESCE(\(sum), 0) \(sumDelta)"
            let newCount = "COALESCE(\(count), 0) \(countDelta)"
            return update([
                "\(sum) = \(newSum)", "\(count) = \(newCount)", "\(d) = CAST(\(newSum) AS REAL) / NULLIF(\(newCount), 0)",
            ], where: "Z_PK = \(parent)\(target.updateFilter)")
        }
        /// The statement for a child row (`row` is NEW or OLD) joining (+1) or leaving (-1) `parent`.
        func change(_ row: String, joining: Bool) -> ParentUpdate {
            let parent = "\(row).\(link)"
            let v = value.map { "\(row).\($0)" } ?? "NULL"
            switch (function, joining) {
            case (.count, _):
                return set("COALESCE(\(d), 0) \(joining ? "+" : "-") 1", forParent: parent)
            case (.sum, _):
                return set("COALESCE(\(d), 0) \(joining ? "+" : "-") COALESCE(\(v), 0)", forParent: parent)
            case (.avg, _):
                let sign = joining ? "+" : "-"
                return average(sumDelta: "\(sign) COALESCE(\(v), 0)", countDelta: "\(sign) (\(v) IS NOT NULL)", parent: parent)
            case (.min, true), (.max, true):
                let better = function == .min ? "<" : ">"
                return set("CASE WHEN \(v) IS NULL THEN \(d) WHEN \(d) IS NULL OR \(v) \(better) \(d) THEN \(v) ELSE \(d) END",
                           forParent: parent)
            default:
                return recompute(parent)
            }
        }
        // A trigger alone keeps its column in its name; merged, it names the
        // child table and its key instead.
        let byLink = "\(child)_\(link)"
        let insertedChildren = InsertedChildrenAggregates(
            parentTable: target.table, childTable: child, link: link, parentFilter: target.updateFilter,
            function: function, column: d, value: value, valueType: valueType)
        var triggers = [
            parentInsert(reading: [child], recompute),
            ParentUpdateTrigger(
                name: "\(target.prefix)_\(child)_INSERT", mergedName: "\(StoreTrigger.namePrefix)\(target.table)_\(byLink)_INSERT",
                event: "INSERT", table: child, when: "NEW.\(link) IS NOT NULL", body: [change("NEW", joining: true)],
                standIn: insertedChildren.map(InsertStandIn.parentAggregates)),
            ParentUpdateTrigger(
                name: "\(target.prefix)_\(child)_DELETE", mergedName: "\(StoreTrigger.namePrefix)\(target.table)_\(byLink)_DELETE",
                event: "DELETE", table: child, when: "OLD.\(link) IS NOT NULL", body: [change("OLD", joining: false)]),
            ParentUpdateTrigger(
                name: "\(target.prefix)_\(child)_UPDATE_\(link)", mergedName: "\(StoreTrigger.namePrefix)\(target.table)_\(byLink)_UPDATE_\(link)",
                event: "UPDATE OF \(link)", table: child, when: "OLD.\(link) IS NOT NEW.\(link)",
                body: [change("OLD", joining: false), change("NEW", joining: true)]),
        ]
        if let value {
            let body: ParentUpdate
            switch function {
            case .sum:
                body = set("COALESCE(\(d), 0) + COALESCE(NEW.\(value), 0) - COALESCE(OLD.\(value), 0)", forParent: "NEW.\(link)")
            case .avg:
                body = average(
                    sumDelta: "+ COALESCE(NEW.\(value), 0) - COALESCE(OLD.\(value), 0)",
                    countDelta: "+ (NEW.\(value) IS NOT NULL) - (OLD.\(value) IS NOT NULL)", parent: "NEW.\(link)")
            default:
                body = recompute("NEW.\(link)")
            }
            // Reparenting with a value change is handled by the key trigger above.
            triggers.append(ParentUpdateTrigger(
                name: "\(target.prefix)_\(child)_UPDATE_\(value)", mergedName: "\(StoreTrigger.namePrefix)\(target.table)_\(byLink)_UPDATE_\(value)",
                event: "UPDATE OF \(value)", table: child,
                when: "OLD.\(link) IS NEW.\(link) AND NEW.\(link) IS NOT NULL AND OLD.\(value) IS NOT NEW.\(value)",
                body: [body]))
        }
        return triggers
    }

    // MARK: Many-to-many through a join table

    private func joined(
        _ function: AggregateFunction, join: String, parentColumn: String, childColumn: String,
        child: String, value: String?
    ) -> [ParentUpdateTrigger] {
        // Counting through the child table too keeps a join row whose child is
        // gone out of every aggregate.
        func expression(_ parent: String) -> String {
            aggregate(function, value: value,
                      "FROM \(join) j JOIN \(child) c ON c.Z_PK = j.\(childColumn) WHERE j.\(parentColumn) = \(parent)")
        }
        let linkedParents: (String) -> ParentUpdate = { childKey in
            self.update(
                ["\(self.target.column) = \(expression("\(self.target.table).Z_PK"))"],
                where: "Z_PK IN (SELECT \(parentColumn) FROM \(join) WHERE \(childColumn) = \(childKey))\(self.target.updateFilter)")
        }
        func throughJoin(_ suffix: String, _ event: String, when: String?, _ body: ParentUpdate) -> ParentUpdateTrigger {
            ParentUpdateTrigger(
                name: "\(target.prefix)_\(child)_\(suffix)", mergedName: "\(StoreTrigger.namePrefix)\(target.table)_\(child)_\(join)_\(suffix)",
                event: event, table: child, when: when, body: [body])
        }
        var triggers = [
            parentInsert(reading: [join, child]) { parent in set(expression(parent), forParent: parent) },
            trigger("\(join)_INSERT", "INSERT", join, when: nil,
                    [set(expression("NEW.\(parentColumn)"), forParent: "NEW.\(parentColumn)")]),
            trigger("\(join)_DELETE", "DELETE", join, when: nil,
                    [set(expression("OLD.\(parentColumn)"), forParent: "OLD.\(parentColumn)")]),
            throughJoin("INSERT", "INSERT", when: nil, linkedParents("NEW.Z_PK")),
            throughJoin("DELETE", "DELETE", when: nil, linkedParents("OLD.Z_PK")),
        ]
        if let value {
            triggers.append(throughJoin("UPDATE_\(value)", "UPDATE OF \(value)", when: "OLD.\(value) IS NOT NEW.\(value)",
                                        linkedParents("NEW.Z_PK")))
        }
        return triggers
    }
}
