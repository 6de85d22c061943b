// Version hashes: a stable fingerprint of everything in a model that affects
// storage, so a store can tell whether it was written by the same model.
//
// Inputs follow Apple's documentation of Core Data's version hashes.
//  Property: name, isOptional, isTransient, isReadOnly, versionHashModifier, plus
//   - attribute: attributeType; for transformable attributes the transformer name;
//     for derived attributes the derivation (canonical spelling when it parses);
//     for composites the element hashes. Faultline adds isIndexed and
//     allowsExternalBinaryDataStorage (both change the store's layout).
//   - relationship: destination entity name, inverse name, minCount, maxCount,
//     isOrdered.
//  Entity: name, isAbstract, the superentity's hash (so a change in a parent
//   re-hashes its sub-entities, which share its table), the property hashes,
//   versionHashModifier. Faultline adds uniqueness constraints and fetch indexes
//   (Apple excludes them; here they create unique indexes and indexes, i.e.
//   storage, so a change must be detectable).
//  Not hashed, because they do not change storage: userInfo,
//   managedObjectClassName, renamingIdentifier (a migration hint), validation
//   rules, default values, delete rules, attributeValueClassName.
//
// Encoding: every field is written with an unambiguous binary encoding (strings
// length-prefixed in UTF-8, integers 8-byte big-endian, optionals with a presence
// byte, lists with a count) under a versioned tag, then digested with SHA-256.
// Properties are sorted by name and constraints and indexes are sorted, so
// declaration order never changes a hash. Swift's `Hasher` is never used (it is
// seeded per process). Model hash = SHA-256 over the entity hashes concatenated
// in entity-name order (Core Data's NSStoreModelVersionChecksumKey recipe).

import Foundation
import FaultlineSupport

enum ModelVersionHash {
    /// The hash of one property.
    static func hash(of property: PropertyDescription) -> Data {
        var encoder = HashInputEncoder()
        encode(property, into: &encoder)
        return SHA256.hash(encoder.bytes)
    }

    /// The hash of one entity (recursing into its superentity).
    static func hash(of entity: EntityDescription) -> Data {
        var cache: [ObjectIdentifier: Data] = [:]
        return hash(of: entity, cache: &cache, visiting: [])
    }

    /// Hashes of several entities, sharing work between a hierarchy's members.
    static func entityHashes(of entities: [EntityDescription]) -> [ObjectIdentifier: Data] {
        var cache: [ObjectIdentifier: Data] = [:]
        for entity in entities { _ = hash(of: entity, cache: &cache, visiting: []) }
        return cache
    }

    /// Hashes of a model's entities: Core Data's where adopted and the entity
    /// is unchanged since (see `adoptCoreDataEntityVersionHashes`), Faultline's otherwise.
    static func entityHashes(of model: ManagedObjectModel) -> [ObjectIdentifier: Data] {
        var hashes = entityHashes(of: model.entities)
        guard !model.adoptedVersionHashes.isEmpty else { return hashes }
        for entity in model.entities {
            let id = ObjectIdentifier(entity)
            guard let name = entity.name, let adopted = model.adoptedVersionHashes[name], hashes[id] == adopted.computed else { continue }
            hashes[id] = adopted.coreData
        }
        return hashes
    }

    /// SHA-256 over the entity hashes concatenated in entity-name order.
    static func modelHash(entityHashesByName: [String: Data]) -> Data {
        var bytes: [UInt8] = []
        for name in entityHashesByName.keys.sorted() {
            bytes.append(contentsOf: entityHashesByName[name] ?? Data())
        }
        return SHA256.hash(bytes)
    }

    private static func hash(of entity: EntityDescription, cache: inout [ObjectIdentifier: Data],
                             visiting: Set<ObjectIdentifier>) -> Data {
        let id = ObjectIdentifier(entity)
        if let cached = cache[id] { return cached }
        var encoder = HashInputEncoder()
        encoder.tag("faultline.entity.1")
        encoder.string(entity.name ?? "")
        encoder.bool(entity.isAbstract)
        if let parent = entity.superentity, !visiting.contains(id) {
            encoder.optional(hash(of: parent, cache: &cache, visiting: visiting.union([id]))) { $0.data($1) }
        } else {
            encoder.optional(Data?.none) { $0.data($1) }
        }
        let properties = entity.properties.map { ($0.name, hash(of: $0)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.lexicographicallyPrecedes($1.1) }
        encoder.list(properties) { encoder, entry in
            encoder.string(entry.0)
            encoder.data(entry.1)
        }
        encoder.optional(entity.versionHashModifier) { $0.string($1) }
        let constraints = entity.uniquenessConstraints.sorted { $0.lexicographicallyPrecedes($1) }
        encoder.list(constraints) { encoder, constraint in
            encoder.list(constraint) { $0.string($1) }
        }
        let indexes = entity.indexes.sorted { $0.name < $1.name }
        encoder.list(indexes) { encoder, index in
            encoder.string(index.name)
            encoder.list(index.elements) { encoder, element in
                encoder.string(element.propertyName)
                encoder.bool(element.isAscending)
                encoder.integer(Int64(element.collationType.rawValue))
            }
        }
        // Only when present, so the hashes of entities without any stay as they were.
        if !entity.compoundIndexes.isEmpty {
            encoder.tag("compoundIndexes")
            encoder.list(entity.compoundIndexes.sorted { $0.lexicographicallyPrecedes($1) }) { encoder, index in
                encoder.list(index) { $0.string($1) }
            }
        }
        let digest = SHA256.hash(encoder.bytes)
        cache[id] = digest
        return digest
    }

    private static func encode(_ property: PropertyDescription, into encoder: inout HashInputEncoder) {
        encoder.tag("faultline.property.1")
        encoder.string(property.name)
        encoder.bool(property.isOptional)
        encoder.bool(property.isTransient)
        encoder.bool(property.isReadOnly)
        encoder.optional(property.versionHashModifier) { $0.string($1) }
        encoder.bool(property.isIndexed)
        switch property {
        case let relationship as RelationshipDescription:
            encoder.tag("relationship")
            encoder.optional(relationship.destinationEntity?.name ?? relationship.unresolvedDestinationName) { $0.string($1) }
            encoder.optional(relationship.inverseRelationship?.name ?? relationship.unresolvedInverseName) { $0.string($1) }
            encoder.integer(Int64(relationship.minCount))
            encoder.integer(Int64(relationship.maxCount))
            encoder.bool(relationship.isOrdered)
        case let attribute as AttributeDescription:
            encodeAttribute(attribute, into: &encoder)
        default:
            encoder.tag("unknown")
        }
    }

    private static func encodeAttribute(_ attribute: AttributeDescription, into encoder: inout HashInputEncoder) {
        encoder.tag("attribute")
        encoder.integer(Int64(attribute.attributeType.rawValue))
        encoder.bool(attribute.allowsExternalBinaryDataStorage)
        let transformer = attribute.attributeType == .transformableAttributeType ? attribute.valueTransformerName : nil
        encoder.optional(transformer) { $0.string($1) }
        switch attribute {
        case let derived as DerivedAttributeDescription:
            encoder.tag("derived")
            let spelling: String? = switch derived.parsedDerivation {
            case .success(let expression)?: expression.description
            case .failure?: derived.derivationExpression
            case nil: nil
            }
            encoder.optional(spelling) { $0.string($1) }
        case let composite as CompositeAttributeDescription:
            encoder.tag("composite")
            let elements = composite.elements.map { ($0.name, hash(of: $0)) }
                .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.lexicographicallyPrecedes($1.1) }
            encoder.list(elements) { encoder, entry in
                encoder.string(entry.0)
                encoder.data(entry.1)
            }
        default:
            encoder.tag("plain")
        }
    }
}

/// Unambiguous binary encoding of hash inputs.
struct HashInputEncoder {
    private(set) var bytes: [UInt8] = []

    mutating func tag(_ tag: String) { string(tag) }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        integer(Int64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    mutating func data(_ value: Data) {
        integer(Int64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// 8 bytes, big-endian, two's complement.
    mutating func integer(_ value: Int64) {
        let bits = UInt64(bitPattern: value)
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
    }

    mutating func optional<T>(_ value: T?, _ encode: (inout HashInputEncoder, T) -> Void) {
        guard let value else {
            bytes.append(0)
            return
        }
        bytes.append(1)
        encode(&self, value)
    }

    mutating func list<T>(_ values: [T], _ encode: (inout HashInputEncoder, T) -> Void) {
        integer(Int64(values.count))
        for value in values { encode(&self, value) }
    }
}
