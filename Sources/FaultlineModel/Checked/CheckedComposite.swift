// Composite attributes of a checked entity: groups of leaf attributes.

/// A composite attribute: a group of leaf attributes addressed by key path.
public struct CheckedComposite: Hashable, Sendable {
    /// The name, or dotted key path for a nested composite.
    public let name: String
    public let keyPath: [String]
    /// Position in the entity's `composites`.
    public let index: Int
    public let declaringEntityIndex: Int
    public let isOptional: Bool
    public let isTransient: Bool
    /// Every leaf under the composite (nested ones included), as attribute indexes.
    public let leafAttributeIndexes: [Int]
    /// The enclosing composite's index, for a nested composite.
    public let parentCompositeIndex: Int?
}
