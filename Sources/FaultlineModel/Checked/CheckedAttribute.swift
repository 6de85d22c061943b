// Leaf attributes of a checked entity (composite elements included, by key path).

import Foundation

/// A leaf attribute: one value slot per object, one column when stored.
public struct CheckedAttribute: Hashable, Sendable {
    /// The name, or the dotted key path for a composite element.
    public let name: String
    /// The key path components (one for a top-level attribute).
    public let keyPath: [String]
    /// Position in the entity's `attributes`.
    public let index: Int
    /// The entity that declares the attribute (an ancestor when inherited).
    public let declaringEntityIndex: Int
    public let attributeType: AttributeType
    /// Optional itself or inside an optional composite.
    public let isOptional: Bool
    /// Transient itself or inside a transient composite: never stored.
    public let isTransient: Bool
    public let isIndexed: Bool
    /// The default, converted exactly to `attributeType`.
    public let defaultValue: AttributeValue?
    public let validationRules: [ValidationRule]
    /// The parsed derivation of a derived attribute.
    public let derivation: DerivationExpression?
    public let valueTransformerName: String?
    public let attributeValueClassName: String?
    public let allowsExternalBinaryDataStorage: Bool
    /// Binary data allowing external storage: what Core Data's layout keeps
    /// behind a marker byte (1, the bytes; 2, a file's name).
    public var storesExternalDataMarker: Bool { allowsExternalBinaryDataStorage && attributeType == .binaryDataAttributeType }
    /// Kept in the persistent history's tombstone when the object is deleted.
    public let preservesValueInHistoryOnDeletion: Bool
    /// Index in the entity's `composites` of the innermost composite holding it.
    public let compositeIndex: Int?

    /// Derived attributes are computed by the store and read-only.
    public var isDerived: Bool { derivation != nil }
    /// Whether the attribute has a column.
    public var isStored: Bool { !isTransient }
}
