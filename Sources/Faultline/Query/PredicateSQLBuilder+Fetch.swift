import Foundation

/// Key paths of a fetch request outside its predicate: sort keys and the
/// properties of a dictionary fetch. They share the predicate's scope, so a
/// to-one hop used by both is joined once.
extension PredicateSQLBuilder {
    /// The ORDER BY expression of a key path: a column (through to-one joins),
    /// its canonical form when case-insensitive, with the standard collating
    /// sequence when `localizedStandard`, or a to-one's key.
    func sortExpression(_ keyPath: String, comparison: FetchSortDescriptor.Comparison) throws -> String {
        let entity = model.entities[root.entityIndex]
        let unknown = FetchError.unknownSortKey(entity: entity.name, key: keyPath)
        let term: PredicateSQLTerm
        do {
            term = try resolve(keyPath.split(separator: ".").map(String.init)[...], scope: root, alias: root.alias,
                               entityIndex: root.entityIndex)
        } catch {
            throw unknown
        }
        switch term {
        case .expression(let sql, let kind, _, let canonical, _) where sql.bindings.isEmpty:
            guard kind == .text else { return sql.sql }
            switch comparison {
            case .binary: return sql.sql
            case .caseInsensitive: return canonical ?? "\(StoreFunctions.canonical)(\(sql.sql))"
            case .localizedStandard: return "\(sql.sql) COLLATE \(StoreFunctions.standardCollation)"
            }
        case .object(let key, _) where !keyPath.isEmpty:
            return key.sql
        default:
            throw unknown
        }
    }

    /// A column of a dictionary fetch: an attribute (through to-one joins), a
    /// to-one key, or `objectID`, the fetched object's own ID.
    func selectedColumn(_ keyPath: String) throws -> SelectedColumn {
        // Core Data's `#keyPath(Car.objectID)`: read as `SELF` with the
        // object-ID result type is. No property can take the name (it is
        // reserved, `NameRules.reservedPropertyNames`), so it hides none.
        if keyPath == "objectID" {
            return try expressionColumn(ExpressionDescription(
                name: keyPath, expression: .keyPath(PredicateKeyPath([])), resultType: .objectIDAttributeType)).column
        }
        let entity = model.entities[root.entityIndex]
        let unknown = FetchError.unknownKeyPath(entity: entity.name, keyPath: keyPath)
        let keys = keyPath.split(separator: ".").map(String.init)
        let term: PredicateSQLTerm
        do {
            term = try resolve(keys[...], scope: root, alias: root.alias, entityIndex: root.entityIndex)
        } catch {
            throw unknown
        }
        switch term {
        case .expression(let sql, let kind, _, _, _):
            guard let attribute = attribute(along: keys) else { throw unknown }
            return SelectedColumn(keyPath: keyPath, expression: sql.sql,
                                  kind: kind == .markedData ? .markedData : .attribute(attribute.attributeType),
                                  attribute: attribute)
        case .object(let key, let destination) where !keys.isEmpty:
            return try objectColumn(keyPath, key: key.sql, entityIndex: destination, lastHop: keys)
        default:
            throw unknown
        }
    }

    /// An object's ID as a column — a to-one's key, or the object's own
    /// `Z_PK` — with the entity number the row records beside it when the
    /// entity has sub-entities, so the ID names the object's own entity.
    /// `lastHop`: the key path whose last key is the to-one (none: the object
    /// itself, or a to-one whose entity column cannot be told).
    private func objectColumn(_ name: String, key: String, entityIndex: Int, lastHop keys: [String]) throws -> SelectedColumn {
        let plain = SelectedColumn(keyPath: name, expression: key, kind: .object(entityIndex))
        guard model.entities[entityIndex].hierarchyIndexes.count > 1, let dot = key.firstIndex(of: ".") else { return plain }
        let alias = key[..<dot]
        if key.hasSuffix(".Z_PK") {
            return SelectedColumn(keyPath: name, expression: "\(key), \(alias).Z_ENT", kind: .objectOfEntity(entityIndex))
        }
        guard let last = keys.last,
              case .object(_, let source) = try resolve(keys.dropLast(), scope: root, alias: root.alias, entityIndex: root.entityIndex),
              case .relationship(let index)? = model.entities[source].propertyByName[last],
              case .foreignKey(_, let entityColumn?) = schema.entities[source].relationships[index]
        else { return plain }
        return SelectedColumn(keyPath: name, expression: "\(key), \(alias).\(entityColumn)", kind: .objectOfEntity(entityIndex))
    }

    /// An aggregate of a grouped fetch's rows: `COUNT(x)`, `SUM(x)`, `AVG(x)`,
    /// `MIN(x)`, `MAX(x)` over the rows of each group (NULLs skipped, as Core Data's SQL store does).
    func rowAggregate(_ aggregate: PredicateAggregate, of sql: SQLFragment, kind: PredicateSQLKind, kindName: String) -> PredicateSQLTerm {
        let (function, resultKind, resultName): (String, PredicateSQLKind, String) = switch aggregate {
        case .count: ("COUNT", .number, "integer")
        case .sum: ("SUM", .number, "number")
        case .avg: ("AVG", .number, "double")
        case .min: ("MIN", kind, kindName)
        case .max: ("MAX", kind, kindName)
        }
        return .expression(function + "(" + sql + ")", kind: resultKind, kindName: resultName, canonical: nil, isColumn: false)
    }

    /// Lets a HAVING predicate name the computed columns `computed` (outside
    /// an aggregate's argument, where a name is the entity's own key).
    /// A column without a `resultType` (Core Data's default) compares as what
    /// its expression is (`count:(name)` a number).
    func name(_ computed: [ComputedColumn], _ descriptions: [ExpressionDescription]) {
        for (description, column) in zip(descriptions, computed) {
            let typed = description.resultType != .undefinedAttributeType
            namedExpressions[description.name] = .expression(
                column.sql, kind: typed ? PredicateSQLKind(description.resultType) : column.kind ?? .other,
                kindName: typed ? description.resultType.predicateKindName : column.kindName, canonical: nil, isColumn: false)
        }
    }

    /// `$name` (or `$name.key`) in a HAVING predicate, where no SUBQUERY binds
    /// it: the computed column or fetched key path of that name, as Core Data
    /// reads `NSExpression(forVariable: "count")` in a `havingPredicate`.
    /// Anything else is still an unsubstituted variable.
    func fetchedColumn(named variable: String, _ path: PredicateKeyPath) throws -> PredicateSQLTerm {
        if path.components.isEmpty, let named = namedExpressions[variable] { return named }
        let keys = [variable] + path.components
        guard fetchedKeyPaths.contains(keys.joined(separator: ".")) else {
            throw FetchPredicateError.unsubstitutedVariable(name: variable)
        }
        return try resolve(keys[...], scope: root, alias: root.alias, entityIndex: root.entityIndex)
    }

    /// A computed column of a dictionary fetch: its SQL with its bindings, read
    /// back as the description's result type, and what its expression is.
    typealias ComputedColumn = (column: SelectedColumn, sql: SQLFragment, kind: PredicateSQLKind?, kindName: String)

    func expressionColumn(_ description: ExpressionDescription) throws -> ComputedColumn {
        let resolved = try resolve(description.expression)
        // An object's ID, as Core Data's `SELF` (the evaluated object) with
        // the object-ID result type; a key path to a to-one is a property to fetch.
        if description.resultType == .objectIDAttributeType, case .object(let key, let entityIndex) = resolved,
           key.bindings.isEmpty, key.sql.hasSuffix(".Z_PK") {
            return (try objectColumn(description.name, key: key.sql, entityIndex: entityIndex, lastHop: []), key, nil, "object ID")
        }
        guard let (sql, kind, kindName) = scalar(resolved) else {
            throw FetchError.unsupportedPredicate(
                "\(description.expression) as the computed column \(description.name): it is not one value per row or group")
        }
        return (SelectedColumn(keyPath: description.name, expression: sql.sql, kind: .attribute(description.resultType)), sql, kind, kindName)
    }

    /// The attribute a key path ends at (through to-ones and composites).
    private func attribute(along keys: [String]) -> CheckedAttribute? {
        var entity = model.entities[root.entityIndex]
        var position = 0
        while position < keys.count {
            var key = keys[position]
            var property = entity.propertyByName[key]
            while case .composite? = property, position + 1 < keys.count {
                position += 1
                key += "." + keys[position]
                property = entity.propertyByName[key]
            }
            switch property {
            case .attribute(let index)?: return entity.attributes[index]
            case .relationship(let index)?: entity = model.entities[entity.relationships[index].destinationEntityIndex]
            default: return nil
            }
            position += 1
        }
        return nil
    }
}
