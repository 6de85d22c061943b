// Relationships of a checked entity, with destination and inverse resolved to indexes.

/// A relationship with resolved destination and inverse.
public struct CheckedRelationship: Hashable, Sendable {
    public let name: String
    /// Position in the entity's `relationships`.
    public let index: Int
    public let declaringEntityIndex: Int
    public let destinationEntityIndex: Int
    /// The inverse's index in the destination entity's `relationships`.
    public let inverseIndex: Int?
    /// Whether the inverse is to-many (`nil` without inverse).
    public let inverseIsToMany: Bool?
    public let isToMany: Bool
    public let isOrdered: Bool
    public let isOptional: Bool
    public let isTransient: Bool
    public let minCount: Int
    public let maxCount: Int
    public let deleteRule: DeleteRule

    /// To-many both ways: stored in a join table.
    public var isManyToMany: Bool { isToMany && inverseIsToMany == true }
}
