import FaultlineModel

/// The indexes of a store, named as Core Data names them:
/// `<TABLE>_<COLUMN>_INDEX` for keys, indexed attributes, canonical columns
/// and `Z_ENT` of shared tables; `Z_<Entity>_<name>` for fetch indexes;
/// `<TABLE>_<COLUMN>_<COLUMN>…` for compound indexes (objc.io's Moody stores);
/// `Z_<Entity>_UNIQUE_<a>_<b>` for uniqueness constraints.
struct IndexPlanner {
    let model: CheckedModel
    let layout: TableLayout

    func indexes() -> [StoreIndex] {
        var result: [StoreIndex] = []
        var names = Set<String>()
        // Columns of the key indexes and of the fetch indexes planned so far. Core
        // Data makes no fetch index over exactly a to-one's key column (Xcode's
        // single-element fetch index for an indexed relationship, in Apple's
        // Accounts3 and Screen Time stores) and no compound index a fetch index
        // already covers (knowledgeC archives both forms of one index); two
        // fetch indexes over the same columns are both made (Screen Time).
        var keyIndexes = Set<[String]>()
        var fetchIndexes = Set<[String]>()
        func add(_ index: StoreIndex, isKey: Bool = false) {
            let columns = [index.table] + index.terms.map(IndexPlanner.plainColumn)
            switch index.kind {
            case .fetchIndex where keyIndexes.contains(columns): return
            case .compoundIndex where keyIndexes.contains(columns) || fetchIndexes.contains(columns): return
            default: break
            }
            guard names.insert(index.name).inserted else { return }
            if isKey { keyIndexes.insert(columns) }
            if index.kind == .fetchIndex { fetchIndexes.insert(columns) }
            result.append(index)
        }
        for table in layout.tables where table.compositePrimaryKey == nil {
            let root = model.entities.first { "Z" + $0.name.uppercased() == table.name && $0.isRoot }
            if let root, root.hierarchyIndexes.count > 1 { add(columnIndex(table.name, "Z_ENT")) }
            for column in layout.keyColumns[table.name] ?? [] { add(columnIndex(table.name, column), isKey: true) }
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
            for compoundIndex in own(entity.compoundIndexes, parent: \.compoundIndexes, of: entity) {
                let columns = compoundIndex.flatMap { mapping.columns(of: $0, in: entity) }
                guard !columns.isEmpty else { continue }
                add(StoreIndex(name: ([mapping.table] + columns).joined(separator: "_"), table: mapping.table,
                               terms: columns, kind: .compoundIndex, whereClause: nil))
            }
            for constraint in own(entity.uniquenessConstraints, parent: \.uniquenessConstraints, of: entity) {
                let constrained = constraint.flatMap { mapping.columns(of: $0, in: entity) }
                guard !constrained.isEmpty else { continue }
                let names = constraint.compactMap { entity.name(of: $0) }
                add(StoreIndex(
                    name: "Z_\(entity.name)_UNIQUE_\(names.joined(separator: "_"))", table: mapping.table,
                    terms: constrained.map { "\($0) COLLATE BINARY ASC" }, kind: .uniqueness,
                    whereClause: constrainsInherited(constraint, of: entity)
                        ? EntityMapping.entityFilter(mapping.entityNumbers, alias: nil) : nil))
            }
        }
        return result
    }

    /// Whether a sub-entity's constraint names a property an ancestor declares,
    /// whose column other entities' rows fill too: only then is its unique index
    /// partial. A column the entity declares itself is NULL in every other
    /// entity's rows, so the whole-table index Core Data makes (CoreDataPlus:
    /// `Z_Author_UNIQUE_alias ON ZWRITER`) constrains the same rows.
    private func constrainsInherited(_ constraint: [PropertyReference], of entity: CheckedEntity) -> Bool {
        guard !entity.isRoot else { return false }
        return constraint.contains { reference in
            switch reference {
            case .attribute(let index):
                entity.attributes.indices.contains(index) && entity.attributes[index].declaringEntityIndex != entity.index
            case .relationship(let index):
                entity.relationships.indices.contains(index) && entity.relationships[index].declaringEntityIndex != entity.index
            case .composite(let index):
                entity.composites.indices.contains(index) && entity.composites[index].leafAttributeIndexes.contains {
                    entity.attributes.indices.contains($0) && entity.attributes[$0].declaringEntityIndex != entity.index
                }
            }
        }
    }

    /// `ZNAME COLLATE BINARY ASC` and `ZNAME` index the same; a descending or
    /// other collation term stays as written.
    private static func plainColumn(_ term: String) -> String {
        let suffix = " COLLATE BINARY ASC"
        return term.hasSuffix(suffix) ? String(term.dropLast(suffix.count)) : term
    }

    static func isCanonical(_ attribute: CheckedAttribute) -> Bool {
        if case .canonical? = attribute.derivation { return true }
        return false
    }

    private func columnIndex(_ table: String, _ column: String) -> StoreIndex {
        StoreIndex(name: "\(table)_\(column)_INDEX", table: table, terms: [column], kind: .column, whereClause: nil)
    }

    /// Constraints or compound indexes the entity declares itself (an inherited
    /// one is indexed once, by the ancestor that declares it, over the whole
    /// hierarchy).
    private func own(
        _ lists: [[PropertyReference]], parent inherited: KeyPath<CheckedEntity, [[PropertyReference]]>,
        of entity: CheckedEntity
    ) -> [[PropertyReference]] {
        guard let parent = entity.superentityIndex.map({ model.entities[$0] }) else { return lists }
        return lists.filter { !parent[keyPath: inherited].contains($0) }
    }
}
