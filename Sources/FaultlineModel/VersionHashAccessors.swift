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
    /// Each entity's version hash by name (the first entity wins a name collision):
    /// Core Data's own where adopted and still valid, Faultline's otherwise.
    public var entityVersionHashesByName: [String: Data] {
        let hashes = ModelVersionHash.entityHashes(of: self)
        return Dictionary(entities.map { ($0.name ?? "", hashes[ObjectIdentifier($0)] ?? Data()) },
                          uniquingKeysWith: { first, _ in first })
    }

    /// Adopts the entity version hashes Core Data computed for this model (a
    /// compiled `.momd`'s `VersionInfo.plist`, or a store's metadata for the model
    /// cached in it), so a store created or migrated with the model carries
    /// Core Data's hashes and opens in Core Data as its own. Apple's algorithm is
    /// unpublished: models built in code keep Faultline's hashes. An entity's
    /// adopted hash holds while its definition is unchanged; an edit after
    /// adopting (or an entity the list does not name) falls back to Faultline's.
    /// Ignored (and recorded) once the model is frozen.
    public func adoptCoreDataEntityVersionHashes(_ hashes: [String: Data]) {
        guard !rejectsMutation("coreDataEntityVersionHashes") else { return }
        let computed = ModelVersionHash.entityHashes(of: entities)
        adoptedVersionHashes = [:]
        for entity in entities {
            guard let name = entity.name, let coreData = hashes[name], let own = computed[ObjectIdentifier(entity)] else { continue }
            adoptedVersionHashes[name] = (own, coreData)
        }
    }

    /// The adopted Core Data hashes still valid (what the entities hash to), by entity name.
    public var coreDataEntityVersionHashes: [String: Data] {
        entityVersionHashesByName.filter { adoptedVersionHashes[$0.key]?.coreData == $0.value }
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
