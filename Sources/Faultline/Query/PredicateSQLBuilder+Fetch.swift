import Foundation

/// Key paths of a fetch request outside its predicate: sort keys and the
/// properties of a dictionary fetch. They share the predicate's scope, so a
/// to-one hop used by both is joined once.
extension PredicateSQLBuilder {
    /// The ORDER BY expression of a key path: a column (through to-one joins),
    /// its canonical form when `caseInsensitive`, or a to-one's key.
    func sortExpression(_ keyPath: String, caseInsensitive: Bool) throws -> String {
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
            guard caseInsensitive, kind == .text else { return sql.sql }
            return canonical ?? "\(StoreFunctions.canonical)(\(sql.sql))"
        case .object(let key, _) where !keyPath.isEmpty:
            return key.sql
        default:
            throw unknown
        }
    }

    /// A column of a dictionary fetch: an attribute (through to-one joins) or a to-one key.
    func selectedColumn(_ keyPath: String) throws -> SelectedColumn {
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
        case .expression(let sql, _, _, _, _):
            guard let type = attributeType(along: keys) else { throw unknown }
            return SelectedColumn(keyPath: keyPath, expression: sql.sql, kind: .attribute(type))
        case .object(let key, let destination) where !keys.isEmpty:
            return SelectedColumn(keyPath: keyPath, expression: key.sql, kind: .object(destination))
        default:
            throw unknown
        }
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
    func name(_ computed: [(column: SelectedColumn, sql: SQLFragment)], _ descriptions: [ExpressionDescription]) {
        for (description, column) in zip(descriptions, computed) {
            namedExpressions[description.name] = .expression(
                column.sql, kind: PredicateSQLKind(description.resultType),
                kindName: description.resultType.predicateKindName, canonical: nil, isColumn: false)
        }
    }

    /// A computed column of a dictionary fetch: its SQL with its bindings,
    /// read back as the description's result type.
    func expressionColumn(_ description: ExpressionDescription) throws -> (column: SelectedColumn, sql: SQLFragment) {
        guard let sql = scalar(try resolve(description.expression))?.sql else {
            throw FetchError.unsupportedPredicate(
                "\(description.expression) as the computed column \(description.name): it is not one value per row or group")
        }
        return (SelectedColumn(keyPath: description.name, expression: sql.sql, kind: .attribute(description.resultType)), sql)
    }

    /// The type of the attribute a key path ends at (through to-ones and composites).
    private func attributeType(along keys: [String]) -> AttributeType? {
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
            case .attribute(let index)?: return entity.attributes[index].attributeType
            case .relationship(let index)?: entity = model.entities[entity.relationships[index].destinationEntityIndex]
            default: return nil
            }
            position += 1
        }
        return nil
    }
}
