// One entity of a checked model. See CheckedModel.swift for the index rules.

import Foundation

/// A validated entity with resolved indexes.
public struct CheckedEntity: Hashable, Sendable {
    public let name: String
    /// Position in `CheckedModel.entities`.
    public let index: Int
    /// The store's entity number (`Z_ENT`): `index + 1`.
    public var number: Int { index + 1 }
    public let managedObjectClassName: String
    public let isAbstract: Bool
    public let renamingIdentifier: String?
    public let versionHashModifier: String?
    /// The superentity's index, `nil` for a root entity.
    public let superentityIndex: Int?
    /// The index of the root of this entity's hierarchy (its own index for a root).
    public let rootEntityIndex: Int
    /// Direct sub-entities, alphabetically.
    public let subentityIndexes: [Int]
    /// This entity and all its descendants, depth-first (what a fetch of this
    /// entity reads: `Z_ENT IN (…)`).
    public let hierarchyIndexes: [Int]

    /// Leaf attributes, inherited first, composites flattened (`colorScheme.primary`).
    public let attributes: [CheckedAttribute]
    /// Relationships, inherited first.
    public let relationships: [CheckedRelationship]
    /// Composite attributes (nested ones too), inherited first.
    public let composites: [CheckedComposite]
    /// Top-level properties (what Core Data's `properties` plus inherited ones
    /// list), inherited first, each level in name order.
    public let properties: [PropertyReference]
    /// Every property by name, composite leaves and nested composites by key path.
    public let propertyByName: [String: PropertyReference]

    /// Uniqueness constraints, each a list of properties (attributes or to-one
    /// relationships), own and inherited.
    public let uniquenessConstraints: [[PropertyReference]]
    /// Fetch indexes, own and inherited.
    public let fetchIndexes: [CheckedFetchIndex]
    /// Compound indexes (Core Data's older form), own and inherited, each a list
    /// of properties indexed ascending.
    public let compoundIndexes: [[PropertyReference]]
    /// The entity's 32-byte version hash.
    public let versionHash: Data

    /// Whether the entity has no superentity.
    public var isRoot: Bool { superentityIndex == nil }

    /// The leaf attribute with this name or key path.
    public func attribute(named name: String) -> CheckedAttribute? {
        guard case .attribute(let index)? = propertyByName[name] else { return nil }
        return attributes[index]
    }

    /// The relationship with this name.
    public func relationship(named name: String) -> CheckedRelationship? {
        guard case .relationship(let index)? = propertyByName[name] else { return nil }
        return relationships[index]
    }

    /// The name of the property `reference` points at; nil when it is out of range.
    package func name(of reference: PropertyReference) -> String? {
        switch reference {
        case .attribute(let index): attributes.indices.contains(index) ? attributes[index].name : nil
        case .relationship(let index): relationships.indices.contains(index) ? relationships[index].name : nil
        case .composite(let index): composites.indices.contains(index) ? composites[index].name : nil
        }
    }

    /// The composite attribute with this name or key path.
    public func composite(named name: String) -> CheckedComposite? {
        guard case .composite(let index)? = propertyByName[name] else { return nil }
        return composites[index]
    }
}

/// A fetch index with resolved elements.
public struct CheckedFetchIndex: Hashable, Sendable {
    public struct Element: Hashable, Sendable {
        public let property: PropertyReference
        public let isAscending: Bool
        public let collationType: FetchIndexElementType
    }

    public let name: String
    public let elements: [Element]
    /// The entity that declared the index.
    public let declaringEntityIndex: Int
}
