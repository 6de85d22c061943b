// Version-hash accessors on the description classes, named as Core Data's.
// They work on any model, checked or not (a model with problems still hashes).

import Foundation

extension PropertyDescription {
    /// The property's 32-byte version hash (see ModelVersionHash.swift for inputs).
    public var versionHash: Data { ModelVersionHash.hash(of: self) }
}

extension EntityDescription {
    /// The entity's 32-byte version hash (see ModelVersionHash.swift for inputs).
    public var versionHash: Data { ModelVersionHash.hash(of: self) }
}

extension ManagedObjectModel {
    /// Each entity's version hash by name (the first entity wins a name collision).
    public var entityVersionHashesByName: [String: Data] {
        let hashes = ModelVersionHash.entityHashes(of: entities)
        return Dictionary(entities.map { ($0.name ?? "", hashes[ObjectIdentifier($0)] ?? Data()) },
                          uniquingKeysWith: { first, _ in first })
    }

    /// Same as `entityVersionHashesByName`.
    public var entityVersionHashes: [String: Data] { entityVersionHashesByName }

    /// SHA-256 over the entity hashes concatenated in entity-name order.
    public var versionHash: Data {
        ModelVersionHash.modelHash(entityHashesByName: entityVersionHashesByName)
    }

    /// Core Data's version checksum: the base64 of `versionHash`.
    public var versionChecksum: String { versionHash.base64EncodedString() }
}
