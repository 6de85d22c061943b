/// Everything the store needs to read and write one entity's rows, resolved
/// once when the coordinator opens: column lists, positions and SQL text, so no
/// per-row work looks anything up by name or builds SQL.
///
/// Reads select the union of the columns of the entity's hierarchy (its own and
/// its sub-entities'), Core Data style:
/// `SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, … FROM ZARTICLE t0 …`;
/// each concrete entity then finds its values at precomputed positions.
///
/// `@unchecked Sendable`: immutable once made; the row layouts' storage is
/// written by the initializer only.
final class EntityStorePlan: @unchecked Sendable {
    /// Where a concrete entity's values sit in a hierarchy select.
    ///
    /// Trivial to copy: decoding takes a row's layout per row, and a layout
    /// holding two arrays cost two retains and two releases a row. The
    /// buffers belong to the plan and are valid while it lives (a decoding
    /// statement holds its plan).
    struct RowLayout {
        struct Attribute {
            let index: Int
            let position: Int32
            let type: AttributeType
        }
        struct ToOne {
            let index: Int
            let keyPosition: Int32
            /// The entity column's position, -1 without one.
            let entityPosition: Int32
            let destination: Int
        }
        /// Each stored attribute.
        let attributes: UnsafeBufferPointer<Attribute>
        /// Each stored to-one.
        let toOnes: UnsafeBufferPointer<ToOne>
        let attributeCount: Int
        let relationshipCount: Int

        fileprivate init(attributes: [Attribute], toOnes: [ToOne], attributeCount: Int, relationshipCount: Int) {
            self.attributes = UnsafeBufferPointer(Self.copy(attributes))
            self.toOnes = UnsafeBufferPointer(Self.copy(toOnes))
            self.attributeCount = attributeCount
            self.relationshipCount = relationshipCount
        }

        private static func copy<Element>(_ elements: [Element]) -> UnsafeMutableBufferPointer<Element> {
            let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
            _ = buffer.initialize(from: elements)
            return buffer
        }

        fileprivate func deallocate() {
            attributes.deallocate()
            toOnes.deallocate()
        }
    }

    /// A column written by inserts and updates: an attribute or a to-one key.
    enum WrittenColumn: Sendable {
        case attribute(index: Int, column: String)
        case toOne(index: Int, column: String, entityColumn: String?)
    }

    /// A written column as a save's insert binds it, without its names: the
    /// insert loop walks these for every row, and walking `WrittenColumn`s
    /// retained and released their strings each time.
    struct InsertSlot: Sendable, BitwiseCopyable {
        /// The attribute's or the relationship's index.
        let index: Int
        let isToOne: Bool
        /// A to-one whose destination entity is written too (`Z…ENT`).
        let hasEntityColumn: Bool
    }

    let entityIndex: Int
    let table: String
    let mapping: EntityMapping
    /// Columns of the hierarchy select, after `Z_ENT, Z_PK, Z_OPT`.
    let selectList: String
    /// The position of each column of `selectList` in a row.
    let columnPositions: [String: Int32]
    /// How many columns `selectList` holds: `Z_ENT, Z_PK, Z_OPT` and the rest.
    var selectedColumnCount: Int32 { Int32(3 + columnPositions.count) }
    /// Layout per concrete entity of the hierarchy, by entity index (nil for
    /// entities outside the hierarchy).
    let layouts: [RowLayout?]

    /// The layout of a row whose `Z_ENT` names `entityIndex`; nil for an entity
    /// outside the hierarchy or a number no entity has (a damaged store).
    func layout(forEntityIndex entityIndex: Int) -> RowLayout? {
        layouts.indices.contains(entityIndex) ? layouts[entityIndex] : nil
    }
    /// `Z_ENT IN (…)` for a shared table, else nil.
    let entityFilter: String?
    /// Written columns of this concrete entity (derived attributes are read-only).
    let writtenColumns: [WrittenColumn]
    /// `writtenColumns` in the same order, for binding.
    let insertSlots: [InsertSlot]
    /// `INSERT OR FAIL INTO T (Z_PK, Z_ENT, Z_OPT, …) VALUES (?, ?, ?, …)`,
    /// derived columns computed from their own row last
    /// (`…, faultline_canonical(?4))`).
    ///
    /// `OR FAIL` (here and in a save's UPDATEs) because a save's writes run
    /// in a transaction that any error rolls back whole: SQLite then needs no
    /// statement journal for a statement whose triggers write other rows,
    /// and copies no page into one per row.
    let insertSQL: String
    /// The derived attributes the insert and update statements compute.
    let rowDerivations: [RowDerivation]
    /// Attribute indexes of derived attributes, re-read after a save.
    let derivedAttributes: [Int]
    /// How an inserted row's derived values are known without a re-read;
    /// nil when they are not (InsertedDerivations.swift).
    let insertedDerivations: InsertedDerivations?
    /// The rows of many keys, bound to parameter 1 as one JSON array.
    let selectByKeys: String
    /// The row of one key, bound to parameter 1: Core Data's statement for
    /// one fault. A single key through `json_each` would pay the table-valued
    /// function and the JSON text for nothing.
    let selectByKey: String
    /// The rest of what a save sends: deletes, join rows, positions, hidden
    /// keys, uniqueness checks.
    let writes: EntityWriteStatements
    /// Update statements by the set of columns they change.
    let updates: UpdateStatements

    /// `signatures` numbers the uniqueness constraints of every entity of the
    /// store by table and columns (EntityWriteStatements.Uniqueness).
    init(entity: CheckedEntity, model: CheckedModel, schema: StoreSchema, signatures: inout [String: Int]) {
        let mapping = schema.entities[entity.index]
        entityIndex = entity.index
        table = mapping.table
        self.mapping = mapping
        updates = UpdateStatements(table: mapping.table)
        entityFilter = mapping.entityFilter(alias: "t0")

        var columns: [String] = []
        var positionOf: [String: Int32] = [:]
        func position(_ column: String) -> Int32 {
            if let known = positionOf[column] { return known }
            let next = Int32(3 + columns.count)
            columns.append(column)
            positionOf[column] = next
            return next
        }
        var layouts = [RowLayout?](repeating: nil, count: model.entities.count)
        for concreteIndex in entity.hierarchyIndexes {
            let concrete = model.entities[concreteIndex]
            let concreteMapping = schema.entities[concreteIndex]
            var attributes: [RowLayout.Attribute] = []
            for attribute in concrete.attributes {
                guard let column = concreteMapping.column(forAttributeAt: attribute.index) else { continue }
                attributes.append(RowLayout.Attribute(index: attribute.index, position: position(column), type: attribute.attributeType))
            }
            var toOnes: [RowLayout.ToOne] = []
            for relationship in concrete.relationships {
                guard case .foreignKey(let column, let entityColumn) = concreteMapping.relationships[relationship.index]
                else { continue }
                toOnes.append(RowLayout.ToOne(
                    index: relationship.index, keyPosition: position(column), entityPosition: entityColumn.map(position) ?? -1,
                    destination: relationship.destinationEntityIndex))
            }
            layouts[concreteIndex] = RowLayout(
                attributes: attributes, toOnes: toOnes,
                attributeCount: concrete.attributes.count, relationshipCount: concrete.relationships.count)
        }
        self.layouts = layouts
        columnPositions = positionOf
        selectList = (["t0.Z_ENT", "t0.Z_PK", "t0.Z_OPT"] + columns.map { "t0.\($0)" }).joined(separator: ", ")
        selectByKeys = "SELECT \(selectList) FROM \(table) t0 WHERE t0.Z_PK IN (SELECT value FROM json_each(?))"
        selectByKey = "SELECT \(selectList) FROM \(table) t0 WHERE t0.Z_PK = ?"

        var written: [WrittenColumn] = []
        for attribute in entity.attributes where !attribute.isDerived {
            if let column = mapping.column(forAttributeAt: attribute.index) {
                written.append(.attribute(index: attribute.index, column: column))
            }
        }
        for relationship in entity.relationships {
            if case .foreignKey(let column, let entityColumn) = mapping.relationships[relationship.index] {
                written.append(.toOne(index: relationship.index, column: column, entityColumn: entityColumn))
            }
        }
        writtenColumns = written
        insertSlots = written.map { column in
            switch column {
            case .attribute(let index, _): InsertSlot(index: index, isToOne: false, hasEntityColumn: false)
            case .toOne(let index, _, let entityColumn): InsertSlot(index: index, isToOne: true, hasEntityColumn: entityColumn != nil)
            }
        }
        var insertColumns = ["Z_PK", "Z_ENT", "Z_OPT"]
        for column in written {
            switch column {
            case .attribute(_, let name): insertColumns.append(name)
            case .toOne(_, let name, let entityColumn):
                insertColumns.append(name)
                if let entityColumn { insertColumns.append(entityColumn) }
            }
        }
        var insertValues = Array(repeating: "?", count: insertColumns.count)
        for derivation in schema.rowDerivations[entity.index] {
            guard let source = insertColumns.firstIndex(of: derivation.sourceColumn) else { continue }
            insertColumns.append(derivation.column)
            insertValues.append(derivation.value(of: "?\(source + 1)"))
        }
        insertSQL = "INSERT OR FAIL INTO \(mapping.table)(\(insertColumns.joined(separator: ", "))) VALUES("
            + insertValues.joined(separator: ", ") + ")"
        rowDerivations = schema.rowDerivations[entity.index]
        derivedAttributes = entity.attributes.filter(\.isDerived).map(\.index)
        insertedDerivations = InsertedDerivations(
            entity: entity, derivedAttributes: derivedAttributes, rowDerivations: rowDerivations)
        writes = EntityWriteStatements(entity: entity, mapping: mapping, schema: schema, signatures: &signatures)
    }

    /// `SELECT <hierarchy columns> FROM T t0` followed by `tail`.
    func select(_ tail: String) -> String {
        "SELECT \(selectList) FROM \(table) t0 \(tail)"
    }

    deinit {
        for layout in layouts { layout?.deallocate() }
    }
}
