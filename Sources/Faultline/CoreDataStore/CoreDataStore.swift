// Opening SQLite stores that Core Data wrote.
//
// Design
// - Explicit: only `PersistentContainer(coreDataStoreAt:model:options:)` /
//   `PersistentStoreCoordinator.openCoreDataStore(model:url:options:)` take
//   this path. The default `PersistentStoreCoordinator(model:location:)`
//   stays strict: it opens only stores whose Z_METADATA carries Faultline's
//   own model hash.
// - Check first, write never before: the store is matched to the model on a
//   READ-ONLY connection (CoreDataStoreMatcher: Core Data's entity hashes when
//   the caller has them, the actual schema column by column always, and the
//   Z_PRIMARYKEY entity numbering). Any difference throws
//   `CoreDataStoreError.modelMismatch` listing every difference; the store
//   file is not opened for writing at all.
// - Metadata untouched: Z_METADATA is neither checked for nor given
//   Faultline's model hash, so Core Data opens the store afterwards as before.
//   Faultline records its hash only in stores it creates.
// - Then the ordinary coordinator: columns by name, Z_OPT versions, Z_MAX key
//   reservation per root, join tables: all already in Core Data's layout.
//   Two Core Data-only behaviours hook in: external binary data markers
//   (CoreDataValueAdapter) and Core Data's SQL functions called by triggers
//   (CoreDataTriggerFunctions).
// - Transformables read as their stored bytes and go through the transformer
//   registered under the attribute's transformer name when the value is
//   accessed; with none registered the raw bytes are kept and returned as Data.

import Foundation
import FaultlineSQLite

/// How to open a store Core Data wrote.
public struct CoreDataStoreOptions: Sendable {
    /// Core Data's own entity version hashes for the model (a `.momd`'s
    /// `VersionInfo.plist`, `ModelBundleVersion.coreDataEntityVersionHashes`).
    /// When set, the store's `NSStoreModelVersionHashes` must equal them.
    public var coreDataEntityVersionHashes: [String: Data]?
    public var rowCacheCapacity: Int
    /// Core Data's `NSPersistentHistoryTrackingKey`: nil (the default)
    /// records every commit in the store's history tables when it has them;
    /// true also creates them; false on a store that has them refuses writes
    /// (`StoreError.persistentHistoryTrackingOff`), as Core Data opens such a
    /// store read-only.
    public var persistentHistoryTracking: Bool?
    /// Opens every connection read-only, as `store inspect` does: never
    /// switched to WAL, nothing prepared or written; every write is refused
    /// with `CoreDataStoreError.openedReadOnly`.
    public var readOnly: Bool

    /// How long a write waits for another writer before `StoreError.busy`.
    public var busyTimeout: TimeInterval

    public init(coreDataEntityVersionHashes: [String: Data]? = nil, rowCacheCapacity: Int = 100_000,
                persistentHistoryTracking: Bool? = nil, readOnly: Bool = false,
                busyTimeout: TimeInterval = PersistentStoreCoordinator.defaultBusyTimeout) {
        self.readOnly = readOnly
        self.busyTimeout = busyTimeout
        self.coreDataEntityVersionHashes = coreDataEntityVersionHashes
        self.rowCacheCapacity = rowCacheCapacity
        self.persistentHistoryTracking = persistentHistoryTracking
    }
}

/// What was found when a Core Data store was matched to its model.
public struct CoreDataStoreInspection: Sendable {
    /// The store's Z_METADATA, as read (never rewritten).
    public let metadata: StoreMetadata
    /// Core Data functions called by triggers → the triggers calling them.
    public let triggerFunctions: [String: [String]]
    /// Whether the store has Core Data's persistent-history tables.
    public let recordsPersistentHistory: Bool
    /// Per root entity number, the largest `Z_PK` of its table where that is
    /// above its `Z_MAX` (rows imported outside Core Data): new keys start above it.
    public let keyFloors: [Int: Int64]
    /// Functions among those Faultline refuses (writes firing them fail).
    public var refusedFunctions: [String] {
        triggerFunctions.keys.filter { !CoreDataTriggerFunctions.implemented.contains($0) }.sorted()
    }
}

public enum CoreDataStore {
    /// Whether a store with these tables (upper-cased) records persistent history.
    static func recordsPersistentHistory(tables: Set<String>) -> Bool {
        tables.contains("ATRANSACTION") && tables.contains("ACHANGE")
    }

    /// Matches the store at `url` to `model` without writing anything; throws
    /// `CoreDataStoreError` when it is not a Core Data store or does not match.
    public static func inspect(
        url: URL, model: CheckedModel, options: CoreDataStoreOptions = CoreDataStoreOptions()
    ) throws -> CoreDataStoreInspection {
        try inspect(url: url, model: model, schema: StoreSchema(compiling: model), options: options)
    }

    /// `ignoringIndexes`: for a model inferred from the store's schema, which
    /// reads rows the same whatever indexes the store keeps.
    static func inspect(
        url: URL, model: CheckedModel, schema: StoreSchema, options: CoreDataStoreOptions, ignoringIndexes: Bool = false
    ) throws -> CoreDataStoreInspection {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw CoreDataStoreError.missingStore(path: path) }
        let connection = try Connection(.file(path), configuration: .inspecting(path))
        let tables = Set(try connection.schemaObjectNames(ofType: "table").map { $0.uppercased() })
        for required in ["Z_METADATA", "Z_PRIMARYKEY"] where !tables.contains(required) {
            throw CoreDataStoreError.notACoreDataStore(path: path, reason: "it has no \(required) table")
        }
        let metadata: StoreMetadata
        do { metadata = try StoreBootstrap.metadata(on: connection) } catch {
            throw CoreDataStoreError.notACoreDataStore(path: path, reason: "Z_METADATA is unreadable: \(error)")
        }
        let differences = try CoreDataStoreMatcher.differences(
            store: connection, model: model, schema: schema,
            coreDataEntityVersionHashes: options.coreDataEntityVersionHashes
        ).filter { difference in
            guard ignoringIndexes else { return true }
            switch difference {
            case .indexOnlyInStore, .indexOnlyInModel: return false
            default: return true
            }
        }
        guard differences.isEmpty else { throw CoreDataStoreError.modelMismatch(path: path, differences: differences) }
        var floors: [Int: Int64] = [:]
        for root in model.entities where root.isRoot {
            let reserved = try BookkeepingStatements.keyMax(ofEntity: root.number, on: connection) ?? 0
            if let largest = try BookkeepingStatements.largestKey(inTable: schema.entities[root.index].table, on: connection),
               largest > reserved {
                floors[root.number] = largest
            }
        }
        return CoreDataStoreInspection(
            metadata: metadata, triggerFunctions: try CoreDataTriggerFunctions.calledFunctions(on: connection),
            recordsPersistentHistory: recordsPersistentHistory(tables: tables), keyFloors: floors)
    }
}

extension PersistentStoreCoordinator {
    /// Opens the SQLite store Core Data wrote at `url` (with its `-wal`/`-shm`)
    /// for `model`, after matching them read-only. Never creates a store and
    /// never rewrites Z_METADATA.
    public static func openCoreDataStore(
        model: CheckedModel, url: URL, options: CoreDataStoreOptions = CoreDataStoreOptions()
    ) throws -> PersistentStoreCoordinator {
        try openCoreDataStore(model: model, url: url, options: options,
                              readOnly: options.readOnly ? .openedReadOnly(path: url.path) : nil)
    }

    /// `readOnly`: why every write is refused, if it is.
    static func openCoreDataStore(
        model: CheckedModel, url: URL, options: CoreDataStoreOptions, readOnly: CoreDataStoreError?
    ) throws -> PersistentStoreCoordinator {
        let schema = try StoreSchema(compiling: model)
        let inspection = try CoreDataStore.inspect(url: url, model: model, schema: schema, options: options,
                                                   ignoringIndexes: readOnly == .inferredModelIsReadOnly(path: url.path))
        return try PersistentStoreCoordinator(
            model: model, schema: schema, coreDataStoreAt: url,
            configuration: StoreConfiguration(
                reads: .pooled, rowCacheCapacity: options.rowCacheCapacity, busyTimeout: options.busyTimeout,
                valueAdapter: CoreDataValueAdapter(model: model, schema: schema, storeURL: url), writeRefusal: readOnly,
                keyFloors: inspection.keyFloors, readOnly: readOnly != nil,
                history: HistoryMode(options.persistentHistoryTracking))
        ) { connection in
            try CoreDataTriggerFunctions.register(for: inspection.triggerFunctions, on: connection)
        }
    }

    /// External-data files a read found missing (their attributes read as nil).
    public var missingExternalDataFiles: Set<String> { (valueAdapter as? CoreDataValueAdapter)?.missingFiles ?? [] }
}

extension PersistentContainer {
    /// A container over the SQLite store Core Data wrote at `url`: see
    /// `PersistentStoreCoordinator.openCoreDataStore(model:url:options:)`.
    public convenience init(
        coreDataStoreAt url: URL, model: ManagedObjectModel, options: CoreDataStoreOptions = CoreDataStoreOptions()
    ) throws {
        self.init(coordinator: try PersistentStoreCoordinator.openCoreDataStore(
            model: model.checked(), url: url, options: options))
    }

    /// A read-only container over a store Core Data wrote that carries no model
    /// (no model cache, no model file): the model is inferred from its schema
    /// (`CoreDataModelInference`), every row reads, and every write is refused
    /// with `CoreDataStoreError.inferredModelIsReadOnly`.
    public convenience init(coreDataStoreInferringModelAt url: URL, options: CoreDataStoreOptions = CoreDataStoreOptions()) throws {
        let model = try CoreDataModelInference.model(ofStoreAt: url).checked()
        self.init(coordinator: try PersistentStoreCoordinator.openCoreDataStore(
            model: model, url: url, options: options, readOnly: .inferredModelIsReadOnly(path: url.path)))
    }
}
