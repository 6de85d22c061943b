import Foundation
import FaultlineSQLite

// The coordinator: the one place where a store's connections, statement caches
// and row cache live, shared by every context on the store.
//
// Invariants:
// 1. Exactly one writer (`StoreWriter`); every write runs through it, in one
//    IMMEDIATE transaction, and its after-commit work runs in one place
//    (`ChangePublisher`).
// 2. File stores read on pooled reader connections (WAL lets them run beside
//    the writer); an in-memory store has one connection, used for both.
// 3. The row cache only holds snapshots of committed rows; a save invalidates
//    the rows it changed (and whole entities whose derived attributes its
//    triggers may have changed) after it commits.
// 4. Connections are never shared between threads at the same time: each is
//    used only while its lock (writer) or pool slot (reader) is held.

/// Where a store lives.
public enum StoreLocation: Sendable, Equatable {
    case inMemory
    case file(URL)

    /// The file's path, or SQLite's name for an in-memory database: how errors name the store.
    public var path: String {
        switch self {
        case .inMemory: ":memory:"
        case .file(let url): url.path
        }
    }

    /// The file's URL; nil for an in-memory store.
    public var fileURL: URL? {
        if case .file(let url) = self { return url }
        return nil
    }

    /// A store at `/dev/null` — Core Data's idiom for a throwaway store in
    /// unit tests — is an in-memory store: SQLite on Linux cannot keep a
    /// database (or its `-wal`) on the device.
    var resolvingNullDevice: StoreLocation {
        if case .file(let url) = self, url.isFileURL, url.standardizedFileURL.path == "/dev/null" { return .inMemory }
        return self
    }
}

/// A model bound to a store: connections, the statement caches, the row cache.
public final class PersistentStoreCoordinator: Sendable {
    public let model: CheckedModel
    public let schema: StoreSchema
    public let location: StoreLocation
    public let rowCache: RowCache
    /// Tells this coordinator's object IDs from other stores'.
    public let identifier: UInt32
    /// The store's UUID (`Z_METADATA.Z_UUID`, Core Data's `NSStoreUUIDKey`):
    /// the host of its objects' URI representations.
    public let storeUUID: String
    let plans: [EntityStorePlan]
    /// The to-many reads of each entity, by entity index.
    let reads: [EntityReadStatements]
    /// The one write path: every save, batch request and clean-up.
    let writer: StoreWriter
    /// What runs after each commit: the row cache, then the contexts.
    let changes: ChangePublisher
    /// State layers above keep per coordinator (`attachment(_:make:)`).
    private let attachments = Locked<[ObjectIdentifier: any Sendable]>([:])
    private let readers = ReaderPool()
    /// The work of reads made in pinned query generations (PinnedReader.swift).
    private let pinnedCounters = Locked(SQLiteCounters())
    /// Where reads run (StoreConfiguration.Reads).
    private let readConnections: StoreConfiguration.Reads
    /// How long a connection of this store waits for another writer.
    public var busyTimeout: TimeInterval { writer.busyTimeout }
    /// Decodes and encodes external-binary-data markers: a store Core Data
    /// wrote (CoreDataStore/), and a Faultline file store whose model has
    /// attributes allowing external storage (inline only). Nil otherwise.
    let valueAdapter: (any StoreValueAdapter)?
    /// Keys of these root entity numbers start above the value (StoreConfiguration.keyFloors).
    let keyFloors: [Int: Int64]
    /// Connections open read-only (StoreConfiguration.readOnly).
    let opensReadOnly: Bool
    /// The entities whose derived attributes other entities' rows feed: what a
    /// save's triggers can make stale in every context.
    let derivedTargets: EntityIndexMask
    /// The entities some to-many can list (its destinations, sub-entities
    /// included): only their objects' merged deletions are looked for in
    /// contexts' to-manys.
    let toManyDestinations: EntityIndexMask
    /// Which dependents a save leaves stale only where it read them back.
    let rereadDependents: RereadDependents
    /// Records every commit in Core Data's persistent history; nil when the
    /// store does not track history (History/).
    let history: HistoryRecorder?

    /// Opens (creating when missing) the store at `location` for `model`.
    /// Throws `StoreError.modelMismatch` when the store was written by another model.
    /// A store that is refused is left exactly as it was: it is checked on a
    /// read-only connection first, because opening it read-write already
    /// switches it to WAL and, on close, checkpoints and deletes its `-wal`.
    /// `busyTimeout`: how long a write waits for another connection's or
    /// process's write to finish before failing with `StoreError.busy`.
    /// `persistentHistoryTracking` (Core Data's `NSPersistentHistoryTrackingKey`):
    /// true records every commit in Core Data's history tables, creating them
    /// when missing; nil (the default) records when the store has them; false
    /// on a store that has them refuses writes, as Core Data opens such a
    /// store read-only.
    ///
    /// `readOnly` (Core Data's `NSReadOnlyPersistentStoreOption`): an existing
    /// store of the model is opened as `store inspect` opens one — never
    /// switched to WAL, created or written (a file in a read-only directory, a
    /// seed shipped with a service), immutable when no `-wal` is beside it, so
    /// nothing else may write it meanwhile — and every save or batch request
    /// is refused with `StoreError.openedReadOnly`.
    public convenience init(model: CheckedModel, location: StoreLocation, rowCacheCapacity: Int = 100_000,
                            busyTimeout: TimeInterval = PersistentStoreCoordinator.defaultBusyTimeout,
                            persistentHistoryTracking: Bool? = nil, readOnly: Bool = false) throws {
        let location = location.resolvingNullDevice
        let schema = try StoreSchema(compiling: model)
        var isDirectory: ObjCBool = false
        if case .file(let url) = location, FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw StoreError.notAStore("it is a directory") }
            try Self.inspect(url, schema: schema)
        } else if readOnly {
            throw StoreError.notAStore(location == .inMemory ? "an in-memory store cannot be opened read-only"
                                                             : "no file to open read-only")
        }
        let connection = try Self.open(location, busyTimeout: busyTimeout, readOnly: readOnly)
        var writeRefusal: (any Error & Sendable)?
        if readOnly, case .file(let url) = location {
            guard try Self.checkStore(schema: schema, on: connection) == .matching else {
                throw StoreError.notAStore("it is empty, and a store opened read-only is never created")
            }
            writeRefusal = StoreError.openedReadOnly(path: url.path)
        } else {
            try Self.prepareStore(schema: schema, on: connection, marksExternalData: location != .inMemory)
        }
        try self.init(model: model, schema: schema, location: location, connection: connection, configuration: StoreConfiguration(
            reads: location == .inMemory ? .onWriter : .pooled, rowCacheCapacity: rowCacheCapacity, busyTimeout: busyTimeout,
            valueAdapter: try Self.externalDataAdapter(model: model, schema: schema, location: location,
                                                       upgrading: !readOnly, on: connection),
            writeRefusal: writeRefusal, readOnly: readOnly, history: HistoryMode(persistentHistoryTracking)))
    }

    /// Core Data stores only (CoreDataStore/): a coordinator over a store the
    /// caller has already matched to `model`. Skips `prepareStore` (Faultline's
    /// own model-hash check and bootstrap), so Z_METADATA is neither checked
    /// nor written; `prepare` runs on the writer before any use.
    convenience init(model: CheckedModel, schema: StoreSchema, coreDataStoreAt url: URL, configuration: StoreConfiguration,
                     prepare: (Connection) throws -> Void) throws {
        let connection = try Self.open(.file(url), busyTimeout: configuration.busyTimeout, readOnly: configuration.readOnly)
        try prepare(connection)
        try self.init(model: model, schema: schema, location: .file(url), connection: connection, configuration: configuration)
    }

    /// Migration only: a coordinator over `connection`, which the migration
    /// owns and may hold inside an open transaction (saves nest as savepoints;
    /// reads use the same connection, so they see the uncommitted stage).
    convenience init(model: CheckedModel, migrationConnection connection: Connection, location: StoreLocation,
                     preparesStore: Bool = true,
                     valueAdapter: (StoreSchema) throws -> (any StoreValueAdapter)? = { _ in nil }) throws {
        let schema = try StoreSchema(compiling: model)
        if preparesStore { try Self.prepareStore(schema: schema, on: connection, marksExternalData: location != .inMemory) }
        try self.init(model: model, schema: schema, location: location, connection: connection, configuration: StoreConfiguration(
            reads: .onWriter, rowCacheCapacity: 10_000, busyTimeout: Self.defaultBusyTimeout,
            valueAdapter: try valueAdapter(schema), history: .ignored))
    }

    private init(model: CheckedModel, schema: StoreSchema, location: StoreLocation, connection: Connection,
                 configuration: StoreConfiguration) throws {
        self.model = model
        self.schema = schema
        self.location = location
        self.rowCache = RowCache(capacity: configuration.rowCacheCapacity)
        self.identifier = OpenStores.newIdentifier()
        var signatures: [String: Int] = [:]
        var plans: [EntityStorePlan] = []
        for entity in model.entities {
            plans.append(EntityStorePlan(entity: entity, model: model, schema: schema, signatures: &signatures))
        }
        self.plans = plans
        self.reads = model.entities.map { EntityReadStatements(entity: $0, plans: plans) }
        let dependents = DerivedDependencies.dependents(in: model)
        derivedTargets = EntityIndexMask(dependents.reduce(into: Set<Int>()) { $0.formUnion($1) })
        toManyDestinations = EntityIndexMask(Set(model.entities.flatMap { entity in
            entity.relationships.filter(\.isToMany).flatMap { model.entities[$0.destinationEntityIndex].hierarchyIndexes }
        }))
        rereadDependents = RereadDependents(model: model)
        let changes = ChangePublisher(rowCache: rowCache, derivedDependents: dependents)
        self.changes = changes
        let (history, historyRefusal) = try Self.history(
            configuration.history, readOnly: configuration.readOnly || configuration.writeRefusal != nil,
            model: model, plans: plans, location: location, storeIdentifier: identifier, on: connection)
        self.history = history
        self.writer = StoreWriter(
            connection, busyTimeout: configuration.busyTimeout, refusal: configuration.writeRefusal ?? historyRefusal,
            publisher: changes, history: history)
        self.readConnections = configuration.reads
        self.valueAdapter = configuration.valueAdapter
        self.keyFloors = configuration.keyFloors
        self.opensReadOnly = configuration.readOnly
        // Every store has its Z_METADATA row by now (bootstrapped, or matched as
        // Core Data's); a row without a UUID gets one for this session.
        storeUUID = (try? StoreBootstrap.metadata(on: connection).uuid).flatMap { $0.isEmpty ? nil : $0 }
            ?? UUID().uuidString
        OpenStores.register(identifier, entityNames: model.entities.map(\.name), storeUUID: storeUUID,
                            path: location.fileURL.map(Self.canonicalPath))
    }

    /// The value of type `T` kept with this coordinator, made by `make` on
    /// first use: how a layer above the store (the object graph's entity
    /// runtimes) keeps state per coordinator without the store knowing its type.
    func attachment<T: AnyObject & Sendable>(_ type: T.Type, make: () -> T) -> T {
        attachments.withLock { attached in
            if let known = attached[ObjectIdentifier(type)] as? T { return known }
            let made = make()
            attached[ObjectIdentifier(type)] = made
            return made
        }
    }

    /// What direct writes (batch requests) may use of this store.
    var writeAccess: StoreWriteAccess { StoreWriteAccess(self) }

    /// The writer's page cache, in KiB. SQLite's default 2 MB spills the dirty
    /// pages of a large transaction to the WAL before it commits, and writes
    /// them again each time the transaction changes them once more: a randomly
    /// ordered index (a canonical search column) multiplies the writes. Readers
    /// keep SQLite's default.
    public static let writerPageCacheKibibytes = 32 * 1024

    /// SQLite's busy handler waits this long by default (Core Data waits too).
    public static let defaultBusyTimeout: TimeInterval = 5

    deinit { OpenStores.unregister(identifier) }

    /// `readOnly`: opened as `store inspect` opens a store — never switched to
    /// WAL, and immutable when nothing else can be writing — for a store no
    /// write may touch.
    static func open(
        _ location: StoreLocation, busyTimeout: TimeInterval = defaultBusyTimeout, readOnly: Bool = false, isWriter: Bool = true
    ) throws -> Connection {
        var configuration = Connection.Configuration()
        if readOnly, case .file(let url) = location { configuration = .inspecting(url.path) }
        if isWriter, !readOnly { configuration.pageCacheKibibytes = writerPageCacheKibibytes }
        configuration.busyTimeoutMilliseconds = Int32(clamping: Int((max(0, busyTimeout) * 1_000).rounded()))
        let connection = switch location {
        case .inMemory: try Connection(.inMemory, configuration: configuration)
        case .file(let url): try Connection(.file(url.path), configuration: configuration)
        }
        try StoreFunctions.register(on: connection)
        return connection
    }

    /// Refuses a file that is not a store of `schema`'s model before anything
    /// opens it for writing (which would switch another app's database to WAL).
    /// Read as `inspecting(_:_:)` reads, retried when another connection's
    /// checkpoint shows the file torn.
    private static func inspect(_ url: URL, schema: StoreSchema) throws {
        do {
            try inspecting(url) { _ = try checkStore(schema: schema, on: $0) }
        } catch let error as SQLiteError where error.code == .notADatabase {
            throw StoreError.notAStore("not a SQLite database")
        }
    }

    /// Checks the store and, when it is empty, bootstraps it through a writer.
    /// An empty store is checked again inside the writer's IMMEDIATE
    /// transaction, so two processes creating the same store cannot both
    /// bootstrap it; an existing store is only read.
    private static func prepareStore(schema: StoreSchema, on connection: Connection, marksExternalData: Bool) throws {
        guard try checkStore(schema: schema, on: connection) == .empty else { return }
        try StoreWriter(migrating: connection).write { connection in
            if try checkStore(schema: schema, on: connection) == .empty {
                _ = try StoreBootstrap.create(schema, inTransactionOn: connection, marksExternalData: marksExternalData)
            }
            return ((), nil)
        }
    }

    /// The adapter of a Faultline file store whose model has binary
    /// attributes allowing external storage: Core Data's markers, every value
    /// inline (CoreDataValueAdapter.swift). A store an earlier Faultline wrote
    /// (raw bytes, no `StoreBootstrap.externalDataFormatKey`) is converted
    /// first when `upgrading` (ExternalDataFormatUpgrade.swift), else read raw.
    /// In-memory stores keep raw bytes.
    static func externalDataAdapter(model: CheckedModel, schema: StoreSchema, location: StoreLocation, upgrading: Bool,
                                    on connection: Connection) throws -> (any StoreValueAdapter)? {
        guard case .file(let url) = location, CoreDataValueAdapter.marksValues(of: model) else { return nil }
        let marked = upgrading
            ? try ExternalDataFormatUpgrade.upgradeIfNeeded(schema: schema, on: connection)
            : StoreBootstrap.marksExternalData(try StoreBootstrap.metadata(on: connection))
        return marked ? CoreDataValueAdapter(model: model, schema: schema, storeURL: url, writesFiles: false) : nil
    }

    enum StoreState { case empty, matching }

    /// Whether the database is empty (a new store) or a store of `schema`'s
    /// model; throws for anything else. Reads only.
    static func checkStore(schema: StoreSchema, on connection: Connection) throws -> StoreState {
        // One read snapshot: another connection bootstrapping the file between
        // two of these reads would show it half made ("tables but no Z_METADATA").
        guard connection.isAutocommit else { return try checkSnapshot(schema: schema, on: connection) }
        try connection.beginReadSnapshot()
        defer { connection.endReadSnapshot() }
        return try checkSnapshot(schema: schema, on: connection)
    }

    private static func checkSnapshot(schema: StoreSchema, on connection: Connection) throws -> StoreState {
        if try !connection.hasTable(named: "Z_METADATA") {
            guard try connection.schemaObjectNames(ofType: "table").isEmpty else {
                throw StoreError.notAStore("it has tables but no Z_METADATA")
            }
            // Views or triggers alone are another database's too: never a new store.
            guard try connection.schemaObjectNames(ofType: "view").isEmpty,
                  try connection.schemaObjectNames(ofType: "trigger").isEmpty else {
                throw StoreError.notAStore("it has views or triggers but no Z_METADATA")
            }
            return .empty
        }
        let metadata = try StoreBootstrap.metadata(on: connection)
        let modelHash = schema.model.versionHash.base64EncodedString()
        guard case .string(let storeHash)? = metadata.additional[StoreBootstrap.modelVersionHashKey] else {
            throw StoreError.modelMismatch(storeHash: StoreError.notWrittenByFaultline, modelHash: modelHash)
        }
        guard StoreBootstrap.recordedHash(storeHash, isOf: schema.model) else {
            throw StoreError.modelMismatch(storeHash: storeHash, modelHash: modelHash)
        }
        return .matching
    }

    /// Runs `body` with a reader connection (the writer for an in-memory store).
    func withReader<Result: Sendable>(_ body: (Connection) throws -> Result) throws -> Result {
        try withReader(pinned: PinnedReader.current(for: self), body)
    }

    /// The same, for a caller that looked up the pinned reader already (a
    /// queue-specific lookup, twice per fault fired alone otherwise).
    func withReader<Result: Sendable>(pinned: PinnedReader?, _ body: (Connection) throws -> Result) throws -> Result {
        if let pinned {
            return try pinned.withConnection { connection in
                let before = connection.counters
                defer { pinnedCounters.withLock { $0 = $0 + (connection.counters - before) } }
                return try writer.translatingBusy { try body(connection) }
            }
        }
        if readConnections == .onWriter { return try writer.withConnection(body) }
        let box = try readers.take() ?? newReader()
        defer { readers.give(box) }
        let localCommits = writer.commitWatch.localCommits.load(ordering: .relaxed)
        defer { noteReaderVersion(of: box, localCommitsBefore: localCommits) }
        return try writer.translatingBusy { try body(box.connection) }
    }

    /// Rows just read (the clock read at `readAt`, before their statement
    /// ran), into the row cache — unless a pinned query generation read them:
    /// a snapshot older than the store's must not serve anyone else.
    func cache(_ rows: some Sequence<(ManagedObjectID, RowSnapshot)>, readAt: UInt64) {
        guard PinnedReader.current(for: self) == nil else { return }
        rowCache.store(rows, readAt: readAt)
    }

    /// `cache(_:readAt:)` for one row (a fault fired alone), its caller
    /// having looked the pinned reader up.
    func cache(_ id: ManagedObjectID, _ snapshot: RowSnapshot, pinned: PinnedReader?, readAt: UInt64) {
        guard pinned == nil else { return }
        rowCache.store(id, snapshot, readAt: readAt)
    }

    /// Whether queries may be pinned to a generation: a store file, read
    /// through pooled connections (WAL), not an in-memory store.
    var supportsQueryGenerations: Bool { readConnections == .pooled }

    /// A new pooled reader. Its set-up pragmas are not counted: the counters
    /// describe the work asked of the store, not connection housekeeping.
    private func newReader() throws -> ConnectionBox {
        let connection = try Self.open(location, busyTimeout: busyTimeout, readOnly: opensReadOnly, isWriter: false)
        connection.resetCounters()
        return ConnectionBox(connection)
    }

    /// Statements, rows and cache figures of every connection of this store.
    public var sqlCounters: SQLiteCounters {
        var total = writer.counters + pinnedCounters.withLock { $0 }
        readers.forEachIdle { total = total + $0.connection.counters }
        return total
    }

    /// Zeroes `sqlCounters` and the row cache's counters.
    public func resetCounters() {
        writer.resetCounters()
        readers.forEachIdle { $0.connection.resetCounters() }
        pinnedCounters.withLock { $0 = SQLiteCounters() }
        rowCache.resetCounters()
    }
}

extension SQLiteCounters {
    static func + (left: SQLiteCounters, right: SQLiteCounters) -> SQLiteCounters {
        var sum = left
        sum.statementsPrepared += right.statementsPrepared
        sum.statementsExecuted += right.statementsExecuted
        sum.rowsReturned += right.rowsReturned
        sum.vmSteps += right.vmSteps
        sum.cacheHits += right.cacheHits
        sum.cacheMisses += right.cacheMisses
        sum.cacheEvictions += right.cacheEvictions
        return sum
    }
}

/// The choices a coordinator's three ways of opening differ by — a Faultline
/// store, a store Core Data wrote, a migration stage's — as one value, so the
/// coordinator is one type configured, not one type with modes.
struct StoreConfiguration: Sendable {
    enum Reads: Sendable, Equatable {
        /// Pooled reader connections beside the writer (WAL).
        case pooled
        /// On the writer: an in-memory store (one connection), or a migration
        /// stage whose writes are still inside the migration's transaction.
        case onWriter
    }

    var reads: Reads
    var rowCacheCapacity: Int
    var busyTimeout: TimeInterval
    /// Values the store keeps in Core Data's form (external binary data
    /// markers); nil when it keeps none.
    var valueAdapter: (any StoreValueAdapter)? = nil
    /// Why every write is refused before it starts; nil when writes are allowed.
    var writeRefusal: (any Error & Sendable)? = nil
    /// Per root entity number, the largest `Z_PK` where it is above `Z_MAX`
    /// (a Core Data store with rows imported outside Core Data).
    var keyFloors: [Int: Int64] = [:]
    /// Every connection opens read-only (a store no write may touch, such as
    /// one read through an inferred model); `writeRefusal` says why.
    var readOnly = false
    /// Whether commits are recorded in persistent history.
    var history: HistoryMode = .automatic
}

/// Whether a coordinator records persistent history (Core Data's
/// `NSPersistentHistoryTrackingKey`).
enum HistoryMode: Sendable, Equatable {
    /// When the store has the history tables.
    case automatic
    /// Always; the tables are created when missing.
    case on
    /// Never; a store that has the tables refuses writes.
    case off
    /// Never, and no refusal: a migration stage, whose writes Core Data does
    /// not record either.
    case ignored

    init(_ tracking: Bool?) {
        self = switch tracking {
        case nil: .automatic
        case true?: .on
        case false?: .off
        }
    }
}
