import Foundation
import FaultlineSQLite

// Core Data's `metadata(for:)` and `setMetadata(_:for:)` on a live store: apps
// keep their own keys in the store's metadata (a seed version, the date of the
// last import). Core Data writes them with the next save; Faultline writes them
// at once, in a write transaction of their own, so they persist even when no
// save follows, and `metadata()` always reads what the store holds.

extension PersistentStoreCoordinator {
    /// The store's metadata as its `Z_METADATA` row holds it now (Core Data's
    /// `metadata(for:)`); an app's own keys are in `additional`.
    public func metadata() throws -> StoreMetadata {
        try withReader { try StoreBootstrap.metadata(on: $0) }
    }

    /// Writes the app's keys of `metadata` (its `additional`, Faultline's own
    /// keys aside) into the store's `Z_METADATA` row, replacing the ones there:
    /// a key left out is removed. Everything else — the UUID, entity hashes,
    /// version identifiers, Core Data's and Faultline's keys — stays the
    /// store's, whatever `metadata` says, as Core Data overwrites its own keys.
    /// One write transaction, at once (Core Data waits for the next save);
    /// nothing is written when the keys are already the store's. Refused as
    /// any write is on a store opened read-only (`StoreError.openedReadOnly`).
    public func setMetadata(_ metadata: StoreMetadata) throws {
        try writer.write { connection in
            let stored = try StoreBootstrap.metadata(on: connection)
            let updated = stored.takingAppKeys(of: metadata)
            if updated != stored { try updated.write(on: connection) }
            return ((), nil)
        }
    }
}

extension PersistentContainer {
    /// The store's metadata: `PersistentStoreCoordinator.metadata()`.
    public func metadata() throws -> StoreMetadata { try coordinator.metadata() }

    /// Writes the app's metadata keys at once: `PersistentStoreCoordinator.setMetadata(_:)`.
    public func setMetadata(_ metadata: StoreMetadata) throws { try coordinator.setMetadata(metadata) }
}

extension StoreMetadata {
    /// Whether `key` of `additional` is one Faultline keeps for itself (its
    /// model hash, schema record, external-data format, deferred clean-up).
    static func isFaultlineKey(_ key: String) -> Bool {
        key.hasPrefix("Faultline") || key == DeferredCleanup.coreDataKey
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
