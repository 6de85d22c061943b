import Foundation

// Core Data's `NSManagedObjectModel.isConfiguration(withName:compatibleWithStoreMetadata:)`:
// whether a store needs migrating, told from its metadata alone
// (`PersistentStoreCoordinator.metadataForPersistentStore(at:)`). The rule is
// Core Data's: every entity of the configuration has the store's version hash
// (`NSStoreModelVersionHashes`); entities the store has beyond the
// configuration's do not matter, and version identifiers are never compared.
// A model built in code hashes with Faultline's own algorithm, so it is
// compatible with stores Faultline wrote for it, not with Core Data's.

extension StoreMetadata {
    /// Whether every entity of `hashes` (name to version hash) has that hash in
    /// the store.
    public func isCompatible(withEntityVersionHashes hashes: [String: Data]) -> Bool {
        hashes.allSatisfy { entityVersionHashes[$0.key] == $0.value }
    }

    /// Core Data's name for the configuration of every entity.
    public static let defaultConfigurationName = "PF_DEFAULT_CONFIGURATION_NAME"

    /// Whether `name` means every entity of the model: nil, or Core Data's default name.
    static func isDefaultConfiguration(_ name: String?) -> Bool {
        name == nil || name == defaultConfigurationName
    }
}

extension ManagedObjectModel {
    /// Whether a store with `metadata` holds this model's configuration `name`
    /// without migrating. A model built in code knows no named configurations:
    /// only nil (or `StoreMetadata.defaultConfigurationName`), every entity;
    /// any other name is false (`ModelBundleVersion` reads the file's configurations).
    public func isConfiguration(withName name: String?, compatibleWithStoreMetadata metadata: StoreMetadata) -> Bool {
        StoreMetadata.isDefaultConfiguration(name) && metadata.isCompatible(withEntityVersionHashes: entityVersionHashesByName)
    }
}

extension CheckedModel {
    /// `ManagedObjectModel.isConfiguration(withName:compatibleWithStoreMetadata:)`
    /// for the checked model (what a container and a `ModelVersion` hold).
    public func isConfiguration(withName name: String?, compatibleWithStoreMetadata metadata: StoreMetadata) -> Bool {
        StoreMetadata.isDefaultConfiguration(name) && metadata.isCompatible(withEntityVersionHashes: entityVersionHashes)
    }
}

extension ModelBundleVersion {
    /// Whether a store with `metadata` holds the configuration `name` of this
    /// version (nil or Core Data's default name: every entity; otherwise the
    /// file's `<configuration>` of that name, false when there is none).
    public func isConfiguration(withName name: String?, compatibleWithStoreMetadata metadata: StoreMetadata) -> Bool {
        guard let name, !StoreMetadata.isDefaultConfiguration(name) else {
            return model.isConfiguration(withName: name, compatibleWithStoreMetadata: metadata)
        }
        guard let configuration = extras.configuration(named: name) else { return false }
        let hashes = model.entityVersionHashesByName.filter { configuration.entityNames.contains($0.key) }
        return metadata.isCompatible(withEntityVersionHashes: hashes)
    }
}
