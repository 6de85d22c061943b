import Foundation
import FaultlineSQLite

/// To-many key paths: EXISTS for ANY/ALL/NONE and membership, correlated
/// subqueries for aggregates, SUBQUERY as a filter on either.
///
/// A key path crossing several to-manys (`books.chapters`) is the evaluator's
/// flattened collection: one row per path reaching an element, so the FROM
/// list holds one item per to-many crossed, each correlated to the one before
/// (`@count` counts chapters over all books; ANY holds when some chapter of
/// some book matches).
extension PredicateSQLBuilder {
    /// The rows of a flattened collection: one FROM item per to-many crossed
    /// (with the to-one joins its scope gathers), their correlations, and the
    /// element each row stands for.
    struct FlatCollection {
        /// Each level's FROM text, with what joins it to the one before.
        var levels: [(joiner: String, from: String, scope: PredicateSQLScope)] = []
        var condition = SQLFragment("")
        var element = PredicateSQLTerm.constant(.null)
        /// The keys followed inside the last level, to the element.
        var lastRest: [String]?

        /// Read after every operand is compiled: compiling adds to-one joins.
        var fromSQL: String { levels.map { $0.joiner + $0.from + $0.scope.joinsSQL }.joined() }

        /// Adds a level reached from `source`. From the previous level's own
        /// rows it is a plain correlated FROM item. From a to-one joined to
        /// them, which may be nil, it is LEFT JOINed and kept only when it
        /// matched or the to-one is nil: a nil to-one on the path stays one
        /// nil element, as the evaluator flattens it.
        mutating func add(_ level: (scope: PredicateSQLScope, from: String, where: SQLFragment), source: String) {
            guard let previous = levels.last?.scope else {
                condition = level.where
                levels.append(("", level.from, level.scope))
                return
            }
            guard source != previous.alias, level.where.bindings.isEmpty else {
                condition = condition + " AND " + level.where
                levels.append((", ", level.from, level.scope))
                return
            }
            let from = level.from.contains(" JOIN ") ? "(\(level.from))" : level.from
            levels.append((" LEFT JOIN ", from + " ON " + level.where.sql, level.scope))
            condition = condition + " AND (\(source).Z_PK IS NULL OR \(level.scope.alias).Z_PK IS NOT NULL)"
        }
    }

    /// Opens `collection`, then `tail` from each of its elements, crossing as
    /// many to-manys as the key paths do. A SUBQUERY filters the elements its
    /// collection reaches (past further relationships too) before `tail`.
    func flatten(_ collection: PredicateSQLCollection, tail: [String]) throws -> FlatCollection {
        var flat = FlatCollection()
        guard let subquery = collection.subquery, !collection.rest.isEmpty else {
            try open(collection, keys: collection.rest + tail, into: &flat)
            return flat
        }
        var unfiltered = collection
        unfiltered.subquery = nil
        try open(unfiltered, keys: collection.rest, into: &flat)
        guard let last = flat.levels.last?.scope, let lastRest = flat.lastRest else {
            throw FetchError.unsupportedPredicate("SUBQUERY over an empty key path")
        }
        let (alias, entityIndex) = try joinedObject(lastRest[...], in: last)
        let saved = variables[subquery.variable]
        variables[subquery.variable] = (last, alias, entityIndex)
        defer { variables[subquery.variable] = saved }
        flat.condition = flat.condition + " AND " + (try compileSubquery(subquery.predicate))
        flat.element = try resolve(tail[...], scope: last, alias: alias, entityIndex: entityIndex)
        while case .collection(let nested) = flat.element {
            try open(nested, keys: nested.rest, into: &flat)
        }
        return flat
    }

    /// Adds `collection`'s level and those `keys` cross after it to `flat`,
    /// leaving the element they reach.
    private func open(_ collection: PredicateSQLCollection, keys: [String], into flat: inout FlatCollection) throws {
        var current = collection
        current.rest = keys
        while true {
            let level = try open(current)
            flat.add(level, source: current.sourceAlias)
            flat.lastRest = current.rest
            flat.element = try resolve(current.rest[...], scope: level.scope, alias: level.scope.alias,
                                       entityIndex: level.scope.entityIndex)
            guard case .collection(let nested) = flat.element else { return }
            current = nested
        }
    }

    /// The alias of the object `keys` reach from `scope`'s own alias through
    /// to-one relationships only, each joined; a SUBQUERY's variable binds to it.
    private func joinedObject(_ keys: ArraySlice<String>, in scope: PredicateSQLScope) throws -> (String, Int) {
        var alias = scope.alias, entityIndex = scope.entityIndex
        for key in keys {
            let entity = model.entities[entityIndex]
            guard case .relationship(let index)? = entity.propertyByName[key], !entity.relationships[index].isToMany,
                  case .foreignKey(let column, _) = schema.entities[entityIndex].relationships[index] else {
                throw FetchError.unsupportedPredicate("SUBQUERY over \(entity.name).\(key), which is not a relationship to objects")
            }
            let destination = entity.relationships[index].destinationEntityIndex
            (alias, entityIndex) = scope.joined(from: alias, column: column, destination: destination,
                                                table: schema.entities[destination].table, newAlias: newAlias)
        }
        return (alias, entityIndex)
    }

    /// The FROM item and correlation of a to-many's destinations, in a new
    /// scope; with a SUBQUERY's filter when it applies to those destinations.
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
            condition = condition + " AND " + (try compileSubquery(subquery.predicate))
        }
        return (scope, from, condition)
    }

    /// `EXISTS (SELECT 1 FROM … WHERE <correlations> AND body(element))`.
    func exists(_ collection: PredicateSQLCollection, _ body: (PredicateSQLTerm) throws -> SQLFragment) throws -> SQLFragment {
        let flat = try flatten(collection, tail: [])
        let inner = try body(flat.element)
        return "EXISTS (SELECT 1 FROM \(flat.fromSQL) WHERE " + flat.condition + " AND " + inner + ")"
    }

    /// `(SELECT COUNT(*) | COALESCE(SUM(x), 0) | AVG(x) | MIN(x) | MAX(x) FROM … WHERE …)`.
    func aggregate(_ aggregate: PredicateAggregate, of operand: PredicateSQLTerm, keyPath: [String]) throws -> PredicateSQLTerm {
        guard case .collection(let collection) = operand else {
            throw FetchPredicateError.aggregateNeedsCollection(aggregate: aggregate.rawValue, found: operand.kindName)
        }
        let flat = try flatten(collection, tail: keyPath)
        var selected = SQLFragment("COUNT(*)")
        var kind = PredicateSQLKind.number, kindName = "integer"
        if aggregate != .count {
            guard case .expression(let value, let elementKind, let elementName, _, _) = flat.element else {
                throw FetchPredicateError.aggregateNeedsAttribute(aggregate: aggregate.rawValue)
            }
            switch aggregate {
            case .sum, .avg:
                guard elementKind.isNumeric else {
                    throw FetchPredicateError.aggregateValueKind(aggregate: aggregate.rawValue, expected: "numbers", found: elementName)
                }
                selected = aggregate == .sum ? "COALESCE(SUM(" + value + "), 0)" : "AVG(" + value + ")"
                kind = elementKind
                kindName = aggregate == .avg ? "double" : elementName
            default:
                guard elementKind.isOrdered else {
                    throw FetchPredicateError.aggregateValueKind(
                        aggregate: aggregate.rawValue, expected: "ordered values (numbers, strings, dates)", found: elementName)
                }
                selected = (aggregate == .min ? "MIN(" : "MAX(") + value + ")"
                (kind, kindName) = (elementKind, elementName)
            }
        }
        let sql = "(SELECT " + selected + " FROM \(flat.fromSQL) WHERE " + flat.condition + ")"
        return .expression(sql, kind: kind, kindName: kindName, canonical: nil, isColumn: false)
    }
}
