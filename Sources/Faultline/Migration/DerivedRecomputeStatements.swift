import Foundation
import FaultlineSQLite

/// Recomputes a derived attribute for every existing row, from the migrated
/// data, with the same expressions its triggers use (run before the triggers
/// exist, so nothing cascades). Key-path derivations are computed before
/// aggregates, so an aggregate over a derived value reads the new value.
struct DerivedRecomputeStatements {
    let schema: StoreSchema

    /// The UPDATE statements for `attributes` (declared on their entities).
    func statements(for attributes: [(entity: CheckedEntity, attribute: CheckedAttribute)]) -> [String] {
        let ordered = attributes.sorted { left, right in
            rank(left.attribute) < rank(right.attribute)
        }
        return ordered.compactMap { statement($0.entity, $0.attribute) }
    }

    private func rank(_ attribute: CheckedAttribute) -> Int {
        if case .aggregate? = attribute.derivation { return 1 }
        return 0
    }

    private func statement(_ entity: CheckedEntity, _ attribute: CheckedAttribute) -> String? {
        let mapping = schema.entities[entity.index]
        guard let derivation = attribute.derivation, let column = mapping.column(forAttributeAt: attribute.index) else {
            return nil
        }
        let table = mapping.table
        let filter = mapping.entityFilter(alias: table).map { " WHERE \($0)" } ?? ""
        switch derivation {
        case .now:
            return "UPDATE \(table) SET \(column) = \(StoreFunctions.now)()\(filter)"
        case .keyPath(let path):
            return keyPath(path, entity: entity, table: table, function: nil).map { "UPDATE \(table) SET \(column) = \($0)\(filter)" }
        case .canonical(let path):
            return keyPath(path, entity: entity, table: table, function: StoreFunctions.canonical)
                .map { "UPDATE \(table) SET \(column) = \($0)\(filter)" }
        case .lowercase(let path):
            return keyPath(path, entity: entity, table: table, function: StoreFunctions.lowercase)
                .map { "UPDATE \(table) SET \(column) = \($0)\(filter)" }
        case .uppercase(let path):
            return keyPath(path, entity: entity, table: table, function: StoreFunctions.uppercase)
                .map { "UPDATE \(table) SET \(column) = \($0)\(filter)" }
        case let .aggregate(function, relationshipName, attributeName):
            guard let relationship = entity.relationship(named: relationshipName) else { return nil }
            let destination = schema.model.entities[relationship.destinationEntityIndex]
            let destinationMapping = schema.entities[destination.index]
            var value = "Z_PK"
            if let attributeName {
                guard let leaf = destination.attribute(named: attributeName),
                      let leafColumn = destinationMapping.column(forAttributeAt: leaf.index) else { return nil }
                value = leafColumn
            }
            let rows: String
            switch mapping.relationships[relationship.index] {
            case let .destinationKey(child, link, _, _):
                rows = "FROM \(child) c WHERE c.\(link) = \(table).Z_PK"
            case let .joinTable(join, source, target, _):
                rows = "FROM \(join) j JOIN \(destinationMapping.table) c ON c.Z_PK = j.\(target) WHERE j.\(source) = \(table).Z_PK"
            case .foreignKey, .transient:
                return nil
            }
            func aggregate(_ function: AggregateFunction) -> String {
                switch function {
                case .count: "(SELECT COUNT(c.\(value)) \(rows))"
                case .sum: "(SELECT COALESCE(SUM(c.\(value)), 0) \(rows))"
                case .min: "(SELECT MIN(c.\(value)) \(rows))"
                case .max: "(SELECT MAX(c.\(value)) \(rows))"
                case .avg: "(SELECT AVG(c.\(value)) \(rows))"
                }
            }
            var sets = ["\(column) = \(aggregate(function))"]
            let sum = AverageColumns.sum(of: column)
            if function == .avg, schema.tables.first(where: { $0.name == table })?.columns.contains(where: { $0.name == sum }) == true {
                sets += ["\(sum) = \(aggregate(.sum))", "\(AverageColumns.count(of: column)) = \(aggregate(.count))"]
            }
            return "UPDATE \(table) SET \(sets.joined(separator: ", "))\(filter)"
        }
    }

    /// The value reached along `path` from a row of `table`.
    private func keyPath(_ path: [String], entity start: CheckedEntity, table: String, function: String?) -> String? {
        var entity = start
        var key: String?
        var position = 0
        var hop = 0
        var currentTable = table
        while position < path.count {
            let rest = path[position...].joined(separator: ".")
            let mapping = schema.entities[entity.index]
            if let attribute = entity.attribute(named: rest), let column = mapping.column(forAttributeAt: attribute.index) {
                let expression = key.map { "(SELECT h.\(column) FROM \(currentTable) h WHERE h.Z_PK = \($0))" }
                    ?? "\(table).\(column)"
                return function.map { "\($0)(\(expression))" } ?? expression
            }
            guard let relationship = entity.relationship(named: path[position]),
                  case .foreignKey(let column, _) = mapping.relationships[relationship.index] else { return nil }
            hop += 1
            key = key.map { "(SELECT k\(hop).\(column) FROM \(currentTable) k\(hop) WHERE k\(hop).Z_PK = \($0))" }
                ?? "\(table).\(column)"
            entity = schema.model.entities[relationship.destinationEntityIndex]
            currentTable = schema.entities[entity.index].table
            position += 1
        }
        return nil
    }
}
