import FaultlineModel

/// Where one entity's data lives in the store.
public struct EntityMapping: Sendable, Hashable {
    /// The entity's index in the checked model.
    public let entityIndex: Int
    /// The table of the entity's inheritance root.
    public let table: String
    /// Whether other entities share the table, so reads filter on `Z_ENT`.
    public let sharesTable: Bool
    /// `Z_ENT` values of this entity and its descendants: what a fetch of the
    /// entity reads.
    public let entityNumbers: [Int]
    /// Column of each attribute, by attribute index; nil for transient ones.
    public let attributeColumns: [String?]
    /// Storage of each relationship, by relationship index.
    public let relationships: [RelationshipStorage]

    /// The column of the attribute with this name or key path.
    /// `@inlinable`: saves ask it per changed value, from the core.
    @inlinable
    public func column(forAttributeAt index: Int) -> String? {
        attributeColumns.indices.contains(index) ? attributeColumns[index] : nil
    }

    /// `<alias>.Z_ENT IN (…)` (or `Z_ENT IN (…)` without an alias) when other
    /// entities share the table, else nil: what restricts a statement on the
    /// table to this entity and its descendants.
    public func entityFilter(alias: String?) -> String? {
        sharesTable ? Self.entityFilter(entityNumbers, alias: alias) : nil
    }

    /// `<alias>.Z_ENT IN (…)` for `numbers`.
    package static func entityFilter(_ numbers: [Int], alias: String?) -> String {
        (alias.map { "\($0).Z_ENT" } ?? "Z_ENT") + " IN (" + numbers.map(String.init).joined(separator: ", ") + ")"
    }

    /// The columns of a property of `entity`: one for an attribute or to-one,
    /// every leaf's for a composite, none for anything unstored.
    package func columns(of property: PropertyReference, in entity: CheckedEntity) -> [String] {
        switch property {
        case .attribute(let index):
            return column(forAttributeAt: index).map { [$0] } ?? []
        case .relationship(let index):
            guard relationships.indices.contains(index), case .foreignKey(let column, _) = relationships[index] else { return [] }
            return [column]
        case .composite(let index):
            guard entity.composites.indices.contains(index) else { return [] }
            return entity.composites[index].leafAttributeIndexes.compactMap { column(forAttributeAt: $0) }
        }
    }
}

/// How a relationship is stored.
public enum RelationshipStorage: Sendable, Hashable {
    /// A to-one: a key column in the source's own table (plus the destination's
    /// `Z_ENT` when the destination has sub-entities).
    case foreignKey(column: String, entityColumn: String?)
    /// A to-many kept as a key column in the destination's table: the to-one
    /// inverse's key, or a hidden key (`Z<n><REL>`) when there is no inverse.
    case destinationKey(table: String, column: String, orderColumn: String?, isHidden: Bool)
    /// A many-to-many: a join table; `sourceColumn` holds this side's keys.
    case joinTable(table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?)
    /// A transient relationship: not stored.
    case transient
}
