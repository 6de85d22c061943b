import Foundation
import FaultlineSQLite

/// The compiler's working state for one predicate: the root scope `t0`, the
/// alias counter and the SUBQUERY variables in force. Logic here; comparisons
/// in `+Comparisons`, strings in `+Strings`, to-many in `+Collections`.
final class PredicateSQLBuilder {
    let schema: StoreSchema
    let root: PredicateSQLScope
    private var aliasCount = 0
    /// The nesting being compiled, counted as `PredicateDepth` does, so a tree
    /// built in code cannot exhaust the stack here.
    private var depth = 0
    /// SUBQUERY variables: the scope and alias of the element.
    var variables: [String: (scope: PredicateSQLScope, alias: String, entityIndex: Int)] = [:]
    /// Compiling a grouped fetch's computed columns and HAVING: an aggregate
    /// of a scalar key path aggregates the group's rows (`SUM(t0.ZPRICE)`).
    var groupsRows = false
    /// Computed columns a HAVING predicate names, by their names.
    var namedExpressions: [String: PredicateSQLTerm] = [:]
    /// The key paths a grouped fetch fetches, which a HAVING predicate may
    /// also name as variables (`$maker`), as Core Data's may.
    var fetchedKeyPaths: Set<String> = []
    /// Whether the comparison being compiled is a key path against a
    /// constant, whose value the key path's affinity converts
    /// (`FetchExpression.storedSide`, the evaluator's rule).
    var convertsConstants = false
    /// Columns holding Core Data's external-storage form: SQL compares them
    /// as stored, so their comparisons are compiled apart.
    let marked: MarkedDataAttributes

    init(schema: StoreSchema, entityIndex: Int, marked: MarkedDataAttributes = .none) {
        self.schema = schema
        self.marked = marked
        root = PredicateSQLScope(entityIndex: entityIndex, alias: "t0")
    }

    var model: CheckedModel { schema.model }

    func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    /// Runs `body` with the nesting at `next` (from `PredicateDepth`).
    func within<T>(_ next: Int, _ body: () throws -> T) rethrows -> T {
        let outer = depth
        depth = next
        defer { depth = outer }
        return try body()
    }

    /// Compiles a SUBQUERY's predicate, one level deeper than its collection.
    func compileSubquery(_ predicate: PredicateNode) throws -> SQLFragment {
        try within(PredicateDepth.deeper(depth)) { try compile(predicate) }
    }

    func compile(_ node: PredicateNode) throws -> SQLFragment {
        func operand(_ child: PredicateNode) throws -> SQLFragment {
            try within(PredicateDepth.of(child, in: node, at: depth)) { try compile(child) }
        }
        switch node {
        case .constant(let value):
            return value ? .alwaysTrue : .alwaysFalse
        case .not(let child):
            return "NOT COALESCE(" + (try operand(child)) + ", 0)"
        // An empty compound is NSCompoundPredicate's: AND of nothing holds, OR of nothing does not.
        case .and(let terms) where terms.isEmpty:
            return .alwaysTrue
        case .or(let terms) where terms.isEmpty:
            return .alwaysFalse
        case .and(let terms):
            return Self.balanced(try terms.map(operand)[...], " AND ")
        case .or(let terms):
            return Self.balanced(try terms.map(operand)[...], " OR ")
        case .comparison(let comparison):
            return try compile(comparison)
        }
    }

    /// `terms` joined by `separator` in parentheses; a long chain as a
    /// balanced tree of short ones. SQLite's parser nests a flat chain one
    /// level per operator and refuses a statement past 1,000 levels
    /// ("Expression tree is too large"): 2,000 ORed comparisons, which the
    /// evaluator takes, would fail in SQL. Balanced, n terms are about
    /// 8 + 2·log2(n / 8) levels deep.
    static func balanced(_ terms: ArraySlice<SQLFragment>, _ separator: String) -> SQLFragment {
        guard terms.count > 8 else { return "(" + SQLFragment.joined(Array(terms), separator: separator) + ")" }
        let middle = terms.startIndex + terms.count / 2
        return "(" + balanced(terms[..<middle], separator) + SQLFragment(separator) + balanced(terms[middle...], separator) + ")"
    }

    // MARK: Operands

    /// Whether an expression holds no key path, so the evaluator can decide it now.
    /// The evaluator's rule (`FetchExpression.isConstant`), so both convert the same constants.
    func isConstant(_ expression: FetchExpression) -> Bool { expression.isConstant }

    func resolve(_ expression: FetchExpression) throws -> PredicateSQLTerm {
        if isConstant(expression) {
            switch try PredicateEvaluator(subject: ConstantSubject()).resolve(expression) {
            case .value(let value): return .constant(value)
            case .collection(let collection):
                var values: [PredicateValue] = []
                for case .value(let value) in collection.elements { values.append(value) }
                return .constant(.array(values))
            case .object: throw FetchError.unsupportedPredicate("an object constant")
            }
        }
        switch expression {
        case .value(let value):
            return .constant(value)
        case .keyPath(let path):
            if path.variable == nil, path.components.count == 1, let named = namedExpressions[path.components[0]] {
                return named
            }
            if let variable = path.variable {
                guard let bound = variables[variable] else { return try fetchedColumn(named: variable, path) }
                return try resolve(path.components[...], scope: bound.scope, alias: bound.alias, entityIndex: bound.entityIndex)
            }
            return try resolve(path.components[...], scope: root, alias: root.alias, entityIndex: root.entityIndex)
        case .list(let elements):
            return .list(try within(PredicateDepth.deeper(depth)) { try elements.map(resolve) })
        case .aggregate(let aggregate, let collection, let keyPath):
            // Inside an aggregate a name is the entity's key, never a computed column.
            let named = namedExpressions
            namedExpressions = [:]
            defer { namedExpressions = named }
            let target = try resolve(collection)
            if groupsRows, keyPath.isEmpty, case .expression(let sql, let kind, let name, _, _) = target {
                return rowAggregate(aggregate, of: sql, kind: kind, kindName: name)
            }
            // `count:(author)`: the rows whose to-one is set.
            if groupsRows, keyPath.isEmpty, aggregate == .count, case .object(let key, _) = target {
                return rowAggregate(.count, of: key, kind: .number, kindName: "integer")
            }
            return try self.aggregate(aggregate, of: target, keyPath: keyPath)
        case .subquery(let collection, let variable, let predicate):
            guard case .collection(var target) = try resolve(collection) else {
                throw FetchPredicateError.modifierNeedsCollection(modifier: "SUBQUERY", found: try resolve(collection).kindName)
            }
            guard target.subquery == nil else {
                throw FetchError.unsupportedPredicate("SUBQUERY over the result of another SUBQUERY")
            }
            target.subquery = (variable, predicate)
            return .collection(target)
        case .function(let function, let arguments):
            return try within(PredicateDepth.deeper(depth)) { try self.function(function, arguments) }
        case .conditional(let predicate, let then, let otherwise):
            return try within(PredicateDepth.deeper(depth)) {
                try self.conditional(try compile(predicate), try resolve(then), try resolve(otherwise))
            }
        }
    }

    /// Follows `keys` from `alias` (an alias of `scope`, an entity of `entityIndex`):
    /// to-one hops join in `scope`; a to-many stops the walk.
    func resolve(
        _ keys: ArraySlice<String>, scope: PredicateSQLScope, alias: String, entityIndex: Int
    ) throws -> PredicateSQLTerm {
        var alias = alias, entityIndex = entityIndex
        var position = keys.startIndex
        guard position < keys.endIndex else { return .object(SQLFragment("\(alias).Z_PK"), entityIndex: entityIndex) }
        while position < keys.endIndex {
            let entity = model.entities[entityIndex]
            let mapping = schema.entities[entityIndex]
            var key = keys[position]
            guard var property = entity.propertyByName[key] else {
                if key == EntityKey.name { return try entityName(alias: alias, of: entity, following: keys[(position + 1)...]) }
                throw FetchPredicateError.unknownKey(entity: entity.name, key: key)
            }
            while case .composite = property {
                position += 1
                guard position < keys.endIndex else {
                    throw FetchError.unsupportedPredicate("the composite \(entity.name).\(key) compared as a whole; compare its elements")
                }
                key += "." + keys[position]
                guard let element = entity.propertyByName[key] else {
                    throw FetchPredicateError.unknownKey(entity: entity.name, key: key)
                }
                property = element
            }
            switch property {
            case .attribute(let index):
                let attribute = entity.attributes[index]
                guard let column = mapping.column(forAttributeAt: index) else {
                    throw FetchError.unsupportedPredicate("the transient attribute \(entity.name).\(key)")
                }
                if position + 1 < keys.endIndex {
                    throw FetchPredicateError.notAnObject(key: keys[position + 1], found: attribute.attributeType.predicateKindName)
                }
                let canonical = canonicalColumn(of: attribute, in: entity).map { "\(alias).\($0)" }
                let kind = marked.contains(entityIndex: entityIndex, attributeIndex: index)
                    ? PredicateSQLKind.markedData : PredicateSQLKind(attribute.attributeType)
                return .expression(SQLFragment("\(alias).\(column)"), kind: kind,
                                   kindName: attribute.attributeType.predicateKindName, canonical: canonical, isColumn: true)
            case .relationship(let index):
                let relationship = entity.relationships[index]
                if relationship.isToMany {
                    return .collection(PredicateSQLCollection(
                        scope: scope, sourceAlias: alias, sourceEntityIndex: entityIndex, relationship: relationship,
                        rest: Array(keys[(position + 1)...]), subquery: nil))
                }
                guard case .foreignKey(let column, _) = mapping.relationships[index] else {
                    throw FetchError.unsupportedPredicate("the transient relationship \(entity.name).\(key)")
                }
                if position + 1 == keys.endIndex {
                    return .object(SQLFragment("\(alias).\(column)"), entityIndex: relationship.destinationEntityIndex)
                }
                let destination = relationship.destinationEntityIndex
                (alias, entityIndex) = scope.joined(
                    from: alias, column: column, destination: destination,
                    table: schema.entities[destination].table, newAlias: newAlias)
            case .composite:
                break
            }
            position += 1
        }
        return .object(SQLFragment("\(alias).Z_PK"), entityIndex: entityIndex)
    }

    /// `entity`, Core Data's key for the object's own entity, as its name:
    /// `CASE Z_ENT WHEN … THEN ? END` over the entities the row may be of
    /// (NULL through a nil to-one), so every comparison applies to it.
    func entityName(alias: String, of entity: CheckedEntity, following rest: ArraySlice<String>) throws -> PredicateSQLTerm {
        if let next = rest.first {
            throw FetchError.unsupportedPredicate(
                "entity.\(next); compare `entity` itself with an entity or an entity's name (`entity == %@`)")
        }
        var sql = "CASE \(alias).Z_ENT"
        var names: [SQLValue] = []
        for index in entity.hierarchyIndexes {
            sql += " WHEN \(model.entities[index].number) THEN ?"
            names.append(.text(model.entities[index].name))
        }
        return .expression(SQLFragment(sql + " END", names), kind: .text, kindName: "entity", canonical: nil, isColumn: false)
    }

    /// The column of the `canonical:(attribute)` derived attribute of `entity`, if any.
    func canonicalColumn(of attribute: CheckedAttribute, in entity: CheckedEntity) -> String? {
        for candidate in entity.attributes {
            if case .canonical(let path)? = candidate.derivation, path == attribute.keyPath {
                return schema.entities[entity.index].column(forAttributeAt: candidate.index)
            }
        }
        return nil
    }
}
