import FaultlineModel

/// The indexes of a store, named as Core Data names them:
/// `<TABLE>_<COLUMN>_INDEX` for keys, indexed attributes, canonical columns
/// and `Z_ENT` of shared tables; `Z_<Entity>_<name>` for fetch indexes;
/// `Z_<Entity>_UNIQUE_<a>_<b>` for uniqueness constraints.
struct IndexPlanner {
    let model: CheckedModel
    let layout: TableLayout

    func indexes() -> [StoreIndex] {
        var result: [StoreIndex] = []
        var names = Set<String>()
        func add(_ index: StoreIndex) {
            if names.insert(index.name).inserted { result.append(index) }
        }
        for table in layout.tables where table.compositePrimaryKey == nil {
            let root = model.entities.first { "Z" + $0.name.uppercased() == table.name && $0.isRoot }
            if let root, root.hierarchyIndexes.count > 1 { add(columnIndex(table.name, "Z_ENT")) }
            for column in layout.keyColumns[table.name] ?? [] { add(columnIndex(table.name, column)) }
        }
        for entity in model.entities {
            let mapping = layout.mappings[entity.index]
            for attribute in entity.attributes where attribute.declaringEntityIndex == entity.index {
                guard let column = mapping.column(forAttributeAt: attribute.index) else { continue }
                if attribute.isIndexed || IndexPlanner.isCanonical(attribute) {
                    add(columnIndex(mapping.table, column))
                }
            }
        }
        for index in layout.joinIndexes { add(index) }
        for entity in model.entities {
            let mapping = layout.mappings[entity.index]
            for fetchIndex in entity.fetchIndexes where fetchIndex.declaringEntityIndex == entity.index {
                let terms = fetchIndex.elements.flatMap { element in
                    mapping.columns(of: element.property, in: entity)
                        .map { "\($0) COLLATE BINARY \(element.isAscending ? "ASC" : "DESC")" }
                }
                guard !terms.isEmpty else { continue }
                add(StoreIndex(name: "Z_\(entity.name)_\(fetchIndex.name)", table: mapping.table,
                               terms: terms, kind: .fetchIndex, whereClause: nil))
            }
            for constraint in ownConstraints(of: entity) {
                let constrained = constraint.flatMap { mapping.columns(of: $0, in: entity) }
                guard !constrained.isEmpty else { continue }
                let names = constraint.compactMap { entity.name(of: $0) }
                add(StoreIndex(
                    name: "Z_\(entity.name)_UNIQUE_\(names.joined(separator: "_"))", table: mapping.table,
                    terms: constrained.map { "\($0) COLLATE BINARY ASC" }, kind: .uniqueness,
                    whereClause: entity.isRoot ? nil : EntityMapping.entityFilter(mapping.entityNumbers, alias: nil)))
            }
        }
        return result
    }

    static func isCanonical(_ attribute: CheckedAttribute) -> Bool {
        if case .canonical? = attribute.derivation { return true }
        return false
    }

    private func columnIndex(_ table: String, _ column: String) -> StoreIndex {
        StoreIndex(name: "\(table)_\(column)_INDEX", table: table, terms: [column], kind: .column, whereClause: nil)
    }

    /// Constraints the entity declares itself (an inherited one is indexed once,
    /// by the ancestor that declares it, over the whole hierarchy).
    private func ownConstraints(of entity: CheckedEntity) -> [[PropertyReference]] {
        guard let parent = entity.superentityIndex.map({ model.entities[$0] }) else { return entity.uniquenessConstraints }
        return entity.uniquenessConstraints.filter { !parent.uniquenessConstraints.contains($0) }
    }
}
