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
