// Which keys of a store's metadata are the app's: what `setMetadata(_:)`
// replaces (PersistentStoreCoordinator+Metadata.swift), every other key staying
// the store's.

extension StoreMetadata {
    /// Core Data's key for a lightweight migration whose clean-up waits; Faultline
    /// writes it with its own record of that work (`DeferredCleanup`).
    static let deferredMigrationKey = "NSPersistentStoreDeferredLightweightMigrationOptionKey"

    /// Whether `key` of `additional` is one Faultline keeps for itself (its
    /// model hash, schema record, external-data format, deferred clean-up).
    static func isFaultlineKey(_ key: String) -> Bool {
        key.hasPrefix("Faultline") || key == deferredMigrationKey
    }

    /// This metadata with `other`'s app keys in place of its own; Faultline's
    /// keys and every typed field stay this metadata's.
    func takingAppKeys(of other: StoreMetadata) -> StoreMetadata {
        var result = self
        result.additional = additional.filter { Self.isFaultlineKey($0.key) }
        for (key, value) in other.additional where !Self.isFaultlineKey(key) { result.additional[key] = value }
        return result
    }
}
