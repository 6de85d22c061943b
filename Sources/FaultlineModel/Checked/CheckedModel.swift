// The checked model: an immutable, Sendable snapshot of a valid model with every
// name resolved to an integer index. Later layers (schema compiler, store, object
// graph) consume only this; they never look at the mutable description classes.
//
// Shape.
//  - `entities[i]` is the entity numbered `i + 1` (its `Z_ENT`), in Core Data's
//    order: root entities alphabetically, each followed depth-first by its
//    sub-entities alphabetically. Everything refers to entities by this index.
//  - Each entity lists its attributes (composite attributes flattened into their
//    leaves, named by key path), relationships and composites, inherited ones
//    first: an entity's lists start with its superentity's lists, unchanged, so an
//    inherited property has the same index in every sub-entity. Own properties
//    follow in name order, so declaration order never matters.
//  - Relationships carry the destination entity index and the inverse's index in
//    the destination's relationship list.
//
// Equality is structural and synthesized: two checked models are equal when they
// describe the same entities with the same properties, indexes, rules, defaults
// and hashes. Two models built differently (by hand, with the builder) that
// compare equal are interchangeable for every later layer. `userInfo` is not part
// of the snapshot (it is `Any` and not Sendable).

import Foundation

/// A validated, index-resolved, immutable model.
public struct CheckedModel: Hashable, Sendable {
    /// Entities in entity-number order (`entities[i].number == i + 1`).
    public let entities: [CheckedEntity]
    /// Entity index by name.
    public let entityIndexByName: [String: Int]
    /// SHA-256 over the entity hashes concatenated in entity-name order.
    public let versionHash: Data
    /// Each entity's 32-byte version hash by entity name: Core Data's where the
    /// model adopted them (see `adoptCoreDataEntityVersionHashes`), Faultline's otherwise.
    public let entityVersionHashes: [String: Data]
    /// The model hash over Faultline's own entity hashes, whatever was adopted:
    /// what a store written before adopting recorded for the same model.
    public let faultlineVersionHash: Data
    /// The model's `versionIdentifiers` (Core Data's): what a store created or
    /// migrated with it records under `NSStoreModelVersionIdentifiers`.
    public let versionIdentifiers: Set<String>

    /// The entity called `name`.
    public func entity(named name: String) -> CheckedEntity? {
        entityIndexByName[name].map { entities[$0] }
    }

    /// Indexes of the entities without a superentity, in entity order.
    public var rootEntityIndexes: [Int] {
        entities.filter(\.isRoot).map(\.index)
    }

    /// Core Data's version checksum: the base64 of `versionHash`.
    public var versionChecksum: String { versionHash.base64EncodedString() }
}

/// A reference to one property of a checked entity, by list and index.
public enum PropertyReference: Hashable, Sendable {
    /// `entity.attributes[index]`.
    case attribute(Int)
    /// `entity.relationships[index]`.
    case relationship(Int)
    /// `entity.composites[index]`.
    case composite(Int)
}

extension CheckedModel {
    /// Whether `relationship` is its own inverse (a symmetric `friends`):
    /// adding B to A's adds A to B's through the same relationship.
    public func isOwnInverse(_ relationship: CheckedRelationship) -> Bool {
        guard let inverseIndex = relationship.inverseIndex else { return false }
        let inverse = entities[relationship.destinationEntityIndex].relationships[inverseIndex]
        return inverse.declaringEntityIndex == relationship.declaringEntityIndex && inverse.name == relationship.name
    }
}
