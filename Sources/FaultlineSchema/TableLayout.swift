import FaultlineModel

/// Lays out the tables: which columns each inheritance root's table holds,
/// their names (with Core Data's collision numbering), their order, the join
/// tables, and where each entity's properties ended up.
package struct TableLayout {
    private(set) var tables: [StoreTable] = []
    private(set) var mappings: [EntityMapping] = []
    /// Foreign-key style columns (to-one keys and hidden keys), per table: indexed.
    private(set) var keyColumns: [String: [String]] = [:]
    /// The reverse indexes of the join tables.
    private(set) var joinIndexes: [StoreIndex] = []

    private enum Owner: Hashable {
        case attribute(entity: Int, name: String)
        case toOne(entity: Int, name: String)
        case toOneEntity(entity: Int, name: String)
        case hiddenKey(entity: Int, name: String)
        case order(entity: Int, name: String)
    }

    private struct Request {
        let base: String
        let type: DeclaredType
        let owner: Owner
        let isKey: Bool
    }

    init(model: CheckedModel) {
        var columnOf: [Owner: String] = [:]
        var tableOfRoot: [Int: String] = [:]
        var requests: [Int: [Request]] = [:]
        for root in model.rootEntityIndexes { tableOfRoot[root] = "Z" + model.entities[root].name.uppercased() }
        for entity in model.entities {
            let root = entity.rootEntityIndex
            for attribute in entity.attributes where attribute.declaringEntityIndex == entity.index && attribute.isStored {
                requests[root, default: []].append(Request(
                    base: "Z" + attribute.keyPath.joined(separator: "_").uppercased(),
                    type: TableLayout.declaredType(of: attribute.attributeType),
                    owner: .attribute(entity: entity.index, name: attribute.name), isKey: false))
            }
            for relationship in entity.relationships
            where relationship.declaringEntityIndex == entity.index && !relationship.isTransient {
                let name = relationship.name.uppercased()
                let destination = model.entities[relationship.destinationEntityIndex]
                if !relationship.isToMany {
                    requests[root, default: []].append(Request(
                        base: "Z" + name, type: .integer,
                        owner: .toOne(entity: entity.index, name: relationship.name), isKey: true))
                    // Named for the destination's entity number, as Core Data does
                    // (Apple's netusage and knowledgeC stores: Z15_HASPROCESS, Z8_OBJECT).
                    if !destination.subentityIndexes.isEmpty {
                        requests[root, default: []].append(Request(
                            base: "Z\(destination.number)_\(name)", type: .integer,
                            owner: .toOneEntity(entity: entity.index, name: relationship.name), isKey: false))
                    }
                } else if relationship.inverseIndex == nil {
                    requests[destination.rootEntityIndex, default: []].append(Request(
                        base: "Z\(entity.number)\(name)", type: .integer,
                        owner: .hiddenKey(entity: entity.index, name: relationship.name), isKey: true))
                }
                if relationship.isToMany, relationship.isOrdered, !relationship.isManyToMany {
                    let keyName = relationship.inverseIndex
                        .map { destination.relationships[$0].name.uppercased() } ?? "\(entity.number)\(name)"
                    requests[destination.rootEntityIndex, default: []].append(Request(
                        base: "Z_FOK_" + keyName, type: .integer,
                        owner: .order(entity: entity.index, name: relationship.name), isKey: false))
                }
            }
        }

        for root in model.rootEntityIndexes {
            let named = TableLayout.resolveCollisions(requests[root] ?? [])
            var columns = [StoreColumn(name: "Z_PK", declaredType: .integer),
                           StoreColumn(name: "Z_ENT", declaredType: .integer),
                           StoreColumn(name: "Z_OPT", declaredType: .integer)]
            let ordered = named.enumerated().sorted { left, right in
                let l = TableLayout.sortGroup(left.element.request)
                let r = TableLayout.sortGroup(right.element.request)
                return l != r ? l < r : left.offset < right.offset
            }
            let table = tableOfRoot[root] ?? ""
            var averages: [StoreColumn] = []
            for (_, entry) in ordered {
                columns.append(StoreColumn(name: entry.name, declaredType: entry.request.type))
                columnOf[entry.request.owner] = entry.name
                if entry.request.isKey { keyColumns[table, default: []].append(entry.name) }
                if case .attribute(let entity, let name) = entry.request.owner,
                   let summed = TableLayout.averagedType(model: model, entity: entity, attribute: name) {
                    averages += [StoreColumn(name: AverageColumns.sum(of: entry.name), declaredType: summed),
                                 StoreColumn(name: AverageColumns.count(of: entry.name), declaredType: .integer)]
                }
            }
            columns += averages
            tables.append(StoreTable(name: table, columns: columns, compositePrimaryKey: nil))
        }

        let joins = JoinTables(model: model)
        tables += joins.tables
        joinIndexes = joins.reverseIndexes

        mappings = model.entities.map { entity in
            let table = tableOfRoot[entity.rootEntityIndex] ?? ""
            let root = model.entities[entity.rootEntityIndex]
            let attributeColumns = entity.attributes.map { attribute -> String? in
                attribute.isStored
                    ? columnOf[.attribute(entity: attribute.declaringEntityIndex, name: attribute.name)] : nil
            }
            let relationships = entity.relationships.map { relationship -> RelationshipStorage in
                let declaring = relationship.declaringEntityIndex
                if relationship.isTransient { return .transient }
                if !relationship.isToMany {
                    return .foreignKey(
                        column: columnOf[.toOne(entity: declaring, name: relationship.name)] ?? "",
                        entityColumn: columnOf[.toOneEntity(entity: declaring, name: relationship.name)])
                }
                if let join = joins.storage[JoinTables.Key(entity: declaring, name: relationship.name)] {
                    return join
                }
                let destination = model.entities[relationship.destinationEntityIndex]
                let destinationTable = tableOfRoot[destination.rootEntityIndex] ?? ""
                let order = columnOf[.order(entity: declaring, name: relationship.name)]
                if let inverse = relationship.inverseIndex {
                    let inverseRelationship = destination.relationships[inverse]
                    let key = columnOf[.toOne(entity: inverseRelationship.declaringEntityIndex, name: inverseRelationship.name)]
                    return .destinationKey(table: destinationTable, column: key ?? "", orderColumn: order, isHidden: false)
                }
                return .destinationKey(
                    table: destinationTable, column: columnOf[.hiddenKey(entity: declaring, name: relationship.name)] ?? "",
                    orderColumn: order, isHidden: true)
            }
            return EntityMapping(
                entityIndex: entity.index, table: table, sharesTable: root.hierarchyIndexes.count > 1,
                entityNumbers: entity.hierarchyIndexes.map { $0 + 1 },
                attributeColumns: attributeColumns, relationships: relationships)
        }
    }

    /// For an `@avg` over a to-many kept by a key in the child table: the type
    /// of the averaged attribute, whose running sum gets a hidden column.
    private static func averagedType(model: CheckedModel, entity: Int, attribute name: String) -> DeclaredType? {
        let owner = model.entities[entity]
        guard let attribute = owner.attribute(named: name),
              case .aggregate(.avg, let relationshipName, let averaged?)? = attribute.derivation,
              let relationship = owner.relationship(named: relationshipName), !relationship.isManyToMany,
              let leaf = model.entities[relationship.destinationEntityIndex].attribute(named: averaged)
        else { return nil }
        return declaredType(of: leaf.attributeType)
    }

    /// Core Data's declared column type for an attribute type.
    package static func declaredType(of type: AttributeType) -> DeclaredType {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType:
            return .integer
        case .doubleAttributeType, .floatAttributeType: return .float
        case .decimalAttributeType: return .decimal
        case .dateAttributeType: return .timestamp
        case .stringAttributeType, .URIAttributeType, .objectIDAttributeType: return .varchar
        case .binaryDataAttributeType, .UUIDAttributeType, .transformableAttributeType,
             .compositeAttributeType, .undefinedAttributeType:
            return .blob
        }
    }

    /// Integer attributes, then keys (to-one, hidden, entity and order
    /// columns), then the other types in Core Data's order.
    private static func sortGroup(_ request: Request) -> Int {
        switch request.owner {
        case .attribute: return request.type == .integer ? 0 : request.type.groupOrder
        case .toOne, .toOneEntity, .hiddenKey, .order: return 1
        }
    }

    /// Names every requested column; a base name requested more than once (a
    /// property name reused across a hierarchy, or names differing only in
    /// case) keeps the bare name for its first request and is numbered from 1
    /// for the later ones, skipping names already requested, as Core Data does
    /// (Apple's NoteStore: `ZACCOUNT`, `ZACCOUNT1` … `ZACCOUNT5`; Screen Time's
    /// `ZSETTINGS`, `ZSETTINGS1`).
    private static func resolveCollisions(_ requests: [Request]) -> [(name: String, request: Request)] {
        var used: [String: Int] = [:]
        var taken = Set(requests.map(\.base))
        return requests.map { request in
            guard var number = used[request.base] else {
                used[request.base] = 0
                return (request.base, request)
            }
            var name: String
            repeat {
                number += 1
                name = request.base + String(number)
            } while taken.contains(name)
            used[request.base] = number
            taken.insert(name)
            return (name, request)
        }
    }
}
