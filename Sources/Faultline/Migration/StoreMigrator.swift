import Foundation
import FaultlineSQLite

/// Migration at open: the store is brought to the model's version (or the
/// open fails) before the coordinator opens it, so a coordinator never sees a
/// schema other than its model's.
public enum StoreMigrator {
    /// Migrates the store at `location` to `target` when it was written by
    /// another model and `options` give a path; throws
    /// `StoreError.modelMismatch` (both hashes) when they do not allow it and
    /// `MigrationError.noMigrationPath` when no given version wrote the store.
    /// A missing file, an empty database or an in-memory store need nothing.
    public static func migrateIfNeeded(location: StoreLocation, to target: ModelVersion, options: MigrationOptions) throws {
        guard case .file(let url) = location, FileManager.default.fileExists(atPath: url.path) else { return }
        let connection = try PersistentStoreCoordinator.open(location)
        let writer = StoreWriter(migrating: connection)
        let hasMetadata = try connection.hasTable(named: "Z_METADATA")
        guard hasMetadata, let storeHash = try StoreBootstrap.metadata(on: connection).modelVersionHash,
              !StoreBootstrap.recordedHash(storeHash, isOf: target.model) else { return }
        switch options.path {
        case .none:
            throw StoreError.modelMismatch(storeHash: storeHash, modelHash: target.hash)
        case .lightweight(let versions):
            guard let source = versions.first(where: { StoreBootstrap.recordedHash(storeHash, isOf: $0.model) }) else {
                throw MigrationError.noMigrationPath(storeHash: storeHash, modelHash: target.hash)
            }
            try LightweightMigration.migrate(
                using: writer, from: source, to: target, deferCleanup: options.deferCleanup, progress: options.progress)
        case .staged(let manager):
            try manager.migrate(
                using: writer, connection: connection, location: location, to: target,
                deferCleanup: options.deferCleanup, progress: options.progress)
        }
    }
}

extension PersistentContainer {
    /// Opens the store at `location` for `model`, first migrating it as
    /// `migration` allows when another model wrote it (Core Data's
    /// `NSMigratePersistentStoresAutomaticallyOption` with inferred mapping,
    /// or `NSPersistentStoreStagedMigrationManagerOptionKey`).
    public convenience init(
        model: ManagedObjectModel, location: StoreLocation, migration: MigrationOptions, rowCacheCapacity: Int = 100_000
    ) throws {
        let target = try ModelVersion(model)
        try StoreMigrator.migrateIfNeeded(location: location, to: target, options: migration)
        try self.init(model: model, location: location, rowCacheCapacity: rowCacheCapacity)
    }

    /// Whether a deferred migration left clean-up to do.
    public var hasDeferredMigration: Bool {
        get throws { try coordinator.writer.withConnection { try DeferredCleanup.isPending(on: $0) } }
    }

    /// Performs the clean-up a deferred migration left (Core Data's
    /// `finishDeferredLightweightMigration()`), on the writer, in one transaction.
    public func finishDeferredMigration() throws {
        let model = coordinator.model
        try DeferredCleanup.finish(using: coordinator.writer, model: model)
    }
}
