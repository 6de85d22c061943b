import Foundation
import FaultlineSQLite

/// To-many key paths: EXISTS for ANY/ALL/NONE and membership, correlated
/// subqueries for aggregates, SUBQUERY as a filter on either.
extension PredicateSQLBuilder {
    /// The FROM list and correlation of a to-many's destinations, in a new scope.
    func open(_ collection: PredicateSQLCollection) throws -> (scope: PredicateSQLScope, from: String, where: SQLFragment) {
        let relationship = collection.relationship
        let destination = relationship.destinationEntityIndex
        let alias = newAlias()
        let scope = PredicateSQLScope(entityIndex: destination, alias: alias)
        let source = "\(collection.sourceAlias).Z_PK"
        let from: String, correlation: String
        switch schema.entities[collection.sourceEntityIndex].relationships[relationship.index] {
        case let .destinationKey(table, column, _, _):
            from = "\(table) \(alias)"
            correlation = "\(alias).\(column) = \(source)"
        case let .joinTable(table, sourceColumn, destinationColumn, _):
            let join = "j" + alias.dropFirst()
            from = "\(table) \(join) JOIN \(schema.entities[destination].table) \(alias) ON \(alias).Z_PK = \(join).\(destinationColumn)"
            correlation = "\(join).\(sourceColumn) = \(source)"
        case .foreignKey, .transient:
            throw FetchError.unsupportedPredicate("the transient relationship \(relationship.name)")
        }
        var condition = SQLFragment(correlation)
        if let subquery = collection.subquery {
            let saved = variables[subquery.variable]
            variables[subquery.variable] = (scope, alias, destination)
            defer { variables[subquery.variable] = saved }
            condition = condition + " AND " + (try compile(subquery.predicate))
        }
        return (scope, from, condition)
    }

    /// `EXISTS (SELECT 1 FROM … WHERE <correlation> AND body(element))`, nested
    /// once per to-many the key path crosses.
    func exists(_ collection: PredicateSQLCollection, _ body: (PredicateSQLTerm) throws -> SQLFragment) throws -> SQLFragment {
        let (scope, from, condition) = try open(collection)
        let element = try resolve(collection.rest[...], scope: scope, alias: scope.alias, entityIndex: scope.entityIndex)
        let inner: SQLFragment
        if case .collection(let nested) = element {
            inner = try exists(nested, body)
        } else {
            inner = try body(element)
        }
        return "EXISTS (SELECT 1 FROM \(from)\(scope.joinsSQL) WHERE " + condition + " AND " + inner + ")"
    }

    /// `(SELECT COUNT(*) | COALESCE(SUM(x), 0) | AVG(x) | MIN(x) | MAX(x) FROM … WHERE …)`.
    func aggregate(_ aggregate: PredicateAggregate, of operand: PredicateSQLTerm, keyPath: [String]) throws -> PredicateSQLTerm {
        guard case .collection(let collection) = operand else {
            throw FetchPredicateError.aggregateNeedsCollection(aggregate: aggregate.rawValue, found: operand.kindName)
        }
        let (scope, from, condition) = try open(collection)
        let path = collection.rest + keyPath
        var selected = SQLFragment("COUNT(*)")
        var kind = PredicateSQLKind.number, kindName = "integer"
        if aggregate != .count || !collection.rest.isEmpty {
            let element = try resolve(path[...], scope: scope, alias: scope.alias, entityIndex: scope.entityIndex)
            if case .collection = element {
                throw FetchError.unsupportedPredicate("\(aggregate.rawValue) over a key path crossing two to-many relationships")
            }
            if aggregate != .count {
                guard case .expression(let value, let elementKind, let elementName, _, _) = element else {
                    throw FetchPredicateError.typeMismatch(operator: aggregate.rawValue, left: element.kindName, right: "number")
                }
                switch aggregate {
                case .sum, .avg:
                    guard elementKind.isNumeric else {
                        throw FetchPredicateError.typeMismatch(operator: aggregate.rawValue, left: elementName, right: "number")
                    }
                    selected = aggregate == .sum ? "COALESCE(SUM(" + value + "), 0)" : "AVG(" + value + ")"
                    kind = elementKind
                    kindName = aggregate == .avg ? "double" : elementName
                default:
                    guard elementKind.isOrdered else {
                        throw FetchPredicateError.typeMismatch(operator: aggregate.rawValue, left: elementName, right: "number")
                    }
                    selected = (aggregate == .min ? "MIN(" : "MAX(") + value + ")"
                    (kind, kindName) = (elementKind, elementName)
                }
            }
        }
        let sql = "(SELECT " + selected + " FROM \(from)\(scope.joinsSQL) WHERE " + condition + ")"
        return .expression(sql, kind: kind, kindName: kindName, canonical: nil, isColumn: false)
    }
}
