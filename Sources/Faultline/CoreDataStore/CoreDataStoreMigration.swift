import Foundation
import FaultlineSQLite

/// Lightweight migration of a store Core Data wrote: the same table rebuilds
/// as a Faultline store's (LightweightMigration.swift), checked before and
/// after as a Core Data store is matched on open (`CoreDataStoreMatcher`),
/// with `Z_METADATA` keeping every key but the entity hashes and what is
/// computed from them, and `Z_MODELCACHE` emptied (it described the old model).
///
/// The store keeps Core Data's own triggers, never gets Faultline's
/// (`CoreDataDerivedTriggerPlan`: refused, before anything changes, where that
/// cannot be done), and its persistent history is carried to the new model
/// (`HistoryMigration`).
struct CoreDataStoreMigration: MigrationChecks {
    /// The store's file, beside which its external binary data lives; nil
    /// only where no row is converted (matching a store to its version).
    var storeURL: URL?

    var recordsFaultlineKeys: Bool { false }

    func isStore(_ connection: Connection, at version: ModelVersion) throws -> Bool {
        try CoreDataStoreMatcher.differences(
            store: connection, model: version.model, schema: StoreSchema(compiling: version.model),
            coreDataEntityVersionHashes: nil).isEmpty
    }

    /// Versions can share a schema (an attribute made optional changes no
    /// column): of those whose schema the store has, the one whose entity
    /// hashes are the store's own, else the latest. Callers list the target
    /// last, so a store that is the target's is current even when the target
    /// is among the sources too (as Core Data finds a compatible store).
    func position(of connection: Connection, among versions: [ModelVersion]) throws -> Int? {
        let matching = try versions.indices.filter { try isStore(connection, at: versions[$0]) }
        let stored = try StoreBootstrap.metadata(on: connection).entityVersionHashes
        return matching.last { versions[$0].model.entityVersionHashes == stored } ?? matching.last
    }

    func before(_ connection: Connection, old: ModelVersion, new: ModelVersion, mapping: MigrationMapping,
                metadata: StoreMetadata) throws {
        try Self.check(connection, old: old, new: new, mapping: mapping)
    }

    func after(_ connection: Connection, new: ModelVersion, schema: StoreSchema, leftovers: DeferredCleanup.Record) throws {
        try Self.finish(connection, new: new, schema: schema)
    }

    func valueAdapter(model: CheckedModel, schema: StoreSchema, location: StoreLocation,
                      on connection: Connection) throws -> (any StoreValueAdapter)? {
        guard case .file(let url) = location else { return nil }
        return CoreDataValueAdapter(model: model, schema: schema, storeURL: url)
    }

    func convertValues(_ connection: Connection, mapping: MigrationMapping, files: MigrationFileChanges) throws {
        let conversion = ExternalStorageConversion(mapping: mapping)
        guard !conversion.columns.isEmpty else { return }
        guard let storeURL else {
            throw MigrationError.unsupportedChange(
                entity: conversion.columns[0].entity, property: conversion.columns[0].attribute,
                reason: "external storage changed, and the store's location (for its external data files) is unknown")
        }
        try conversion.apply(on: connection, storeURL: storeURL, files: files)
    }

    func triggerStatements(mapping: MigrationMapping, on connection: Connection) throws -> [String] {
        try CoreDataDerivedTriggerPlan(mapping: mapping, existing: connection.schemaObjects(ofType: "trigger")).statements
    }

    static func check(_ connection: Connection, old: ModelVersion, new: ModelVersion, mapping: MigrationMapping,
                      verifiesOld: Bool = true) throws {
        // Refused here, read-only, before anything is opened for writing; the
        // migration plans again inside its transaction, from what it finds there.
        _ = try CoreDataDerivedTriggerPlan(mapping: mapping, existing: connection.schemaObjects(ofType: "trigger"))
        // A later step of a staged migration checks its old version only once it runs.
        guard verifiesOld else { return }
        let differences = try CoreDataStoreMatcher.differences(
            store: connection, model: old.model, schema: mapping.oldSchema, coreDataEntityVersionHashes: nil)
        guard differences.isEmpty else {
            throw MigrationError.schemaMismatch(model: old.label, missing: differences.map(\.description), unexpected: [])
        }
    }

    /// After the rebuild, inside the transaction: the model cache, which
    /// describes the old model, is emptied (as Apple's NotesV7 store in the
    /// fixtures holds it), and the store must now be the new model's.
    static func finish(_ connection: Connection, new: ModelVersion, schema: StoreSchema) throws {
        try BookkeepingStatements.emptyModelCache(on: connection)
        let differences = try CoreDataStoreMatcher.differences(
            store: connection, model: new.model, schema: schema, coreDataEntityVersionHashes: nil)
        guard differences.isEmpty else {
            throw MigrationError.schemaMismatch(model: new.label, missing: differences.map(\.description), unexpected: [])
        }
    }
}

/// What a migration of a Core Data store would do, found without writing it.
public struct CoreDataMigrationPlan: Sendable {
    /// The label of the source version the store matches; nil when none does.
    public let source: String?
    /// The store already matches the target.
    public let isCurrent: Bool
    /// What the existing rows hold that the migration would refuse.
    public let preflight: MigrationPreflight?
    /// Why the migration failed when tried on a copy of the store; nil when it succeeded.
    public let trialFailure: String?
}

extension CoreDataStore {
    public enum MigrationOutcome: Sendable, Equatable {
        case alreadyCurrent
        case migrated(from: String)
    }

    /// Brings the store Core Data wrote at `url` to `target` by lightweight
    /// migration from the first of `sources` it matches — Core Data's automatic
    /// migration with an inferred mapping — in one transaction: on any error
    /// the store is as it was. Throws `MigrationError.noMigrationPath` when it
    /// matches neither `target` nor a source.
    @discardableResult
    public static func migrate(storeAt url: URL, to target: ModelVersion, from sources: [ModelVersion]) throws -> MigrationOutcome {
        guard let source = try matchingSource(url, target: target, sources: sources) else { return .alreadyCurrent }
        // Refusals first, on a read-only connection: opening for writing already
        // changes the files (WAL mode, the -wal and -shm on close). The rows
        // are read for what the migration would stop at, too.
        do {
            let reader = try Connection(.file(url.path), configuration: .inspecting(url.path))
            try CoreDataStoreMigration.check(reader, old: source, new: target, mapping: MigrationMapping(from: source, to: target))
            if let refusal = try MigrationPreflight.run(on: reader, from: source, to: target).firstRefusal { throw refusal }
        }
        let connection = try PersistentStoreCoordinator.open(.file(url))
        try LightweightMigration.migrate(using: StoreWriter(migrating: connection), from: source, to: target,
                                         checks: CoreDataStoreMigration(storeURL: url))
        return .migrated(from: source.label)
    }

    /// Brings the store Core Data wrote at `url` to `target` through the
    /// stages of `manager` (Core Data's `NSStagedMigrationManager`): from the
    /// stage whose version the store matches, each step one transaction, the
    /// custom stages' handlers running with a context on the migrating
    /// connection. Throws `MigrationError.noMigrationPath` before anything is
    /// written when the store matches no version of the chain.
    @discardableResult
    public static func migrate(storeAt url: URL, to target: ModelVersion, using manager: StagedMigrationManager) throws
        -> MigrationOutcome
    {
        let checks = CoreDataStoreMigration(storeURL: url)
        let reader = try Connection(.file(url.path), configuration: .inspecting(url.path))
        let steps = manager.steps(to: target)
        guard let position = try checks.position(of: reader, among: steps.map(\.from) + [target]) else {
            throw MigrationError.noMigrationPath(storeHash: "a Core Data store", modelHash: target.hash)
        }
        if position == steps.count { return .alreadyCurrent }
        // Every step's refusals before any byte changes, not only the first's.
        for step in steps[position...] {
            try CoreDataStoreMigration.check(reader, old: step.from, new: step.to, mapping: MigrationMapping(from: step.from, to: step.to),
                                             verifiesOld: step.from.label == steps[position].from.label)
        }
        let start = steps[position]
        let connection = try PersistentStoreCoordinator.open(.file(url))
        try manager.migrate(using: StoreWriter(migrating: connection), connection: connection, location: .file(url),
                            to: target, deferCleanup: false, progress: nil, checks: checks)
        return .migrated(from: start.from.label)
    }

    /// The dry run of `migrate`: which source the store matches, the
    /// preflight over its rows, and (when `triesOnCopy`) the migration tried
    /// on a temporary copy. The store's own files are only read.
    public static func planMigration(storeAt url: URL, to target: ModelVersion, from sources: [ModelVersion],
                                     triesOnCopy: Bool = true) throws -> CoreDataMigrationPlan
    {
        let source: ModelVersion
        do {
            guard let found = try matchingSource(url, target: target, sources: sources) else {
                return CoreDataMigrationPlan(source: nil, isCurrent: true, preflight: nil, trialFailure: nil)
            }
            source = found
        } catch let error as MigrationError {
            return CoreDataMigrationPlan(source: nil, isCurrent: false, preflight: nil, trialFailure: error.description)
        }
        let preflight = try MigrationPreflight.run(
            on: Connection(.file(url.path), configuration: .inspecting(url.path)), from: source, to: target)
        guard triesOnCopy else {
            return CoreDataMigrationPlan(source: source.label, isCurrent: false, preflight: preflight, trialFailure: nil)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent(url.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            try FileManager.default.copyItem(atPath: url.path + suffix, toPath: copy.path + suffix)
        }
        // The external data too: a conversion reads (and removes) files beside
        // the store it migrates, which must be the copy's, never the store's own.
        let support = CoreDataValueAdapter.externalDataDirectory(forStoreAt: url).deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: support.path) {
            try FileManager.default.copyItem(
                at: support, to: CoreDataValueAdapter.externalDataDirectory(forStoreAt: copy).deletingLastPathComponent())
        }
        var failure: String?
        do {
            try LightweightMigration.migrate(using: StoreWriter(migrating: PersistentStoreCoordinator.open(.file(copy))),
                                             from: source, to: target, checks: CoreDataStoreMigration(storeURL: copy))
        } catch {
            failure = "\(error)"
        }
        return CoreDataMigrationPlan(source: source.label, isCurrent: false, preflight: preflight, trialFailure: failure)
    }

    /// The source the store matches, nil when it matches `target` already.
    private static func matchingSource(_ url: URL, target: ModelVersion, sources: [ModelVersion]) throws -> ModelVersion? {
        let reader = try Connection(.file(url.path), configuration: .inspecting(url.path))
        let candidates = sources + [target]
        guard let position = try CoreDataStoreMigration().position(of: reader, among: candidates) else {
            let metadata = try StoreBootstrap.metadata(on: reader)
            throw MigrationError.noMigrationPath(storeHash: metadata.checksum ?? "unknown", modelHash: target.hash)
        }
        return position == sources.count ? nil : candidates[position]
    }
}
