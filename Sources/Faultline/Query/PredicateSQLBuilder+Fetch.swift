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
