import Foundation
import FaultlineSQLite

/// How a migration makes sure, inside its transaction, that the store is the
/// old model's before it changes anything and the new model's afterwards; and
/// whether the store's metadata records Faultline's own keys. Faultline's
/// stores are checked against the schema they record (`RecordedSchemaChecks`);
/// stores Core Data wrote as they are matched on open (CoreDataStore/).
protocol MigrationChecks: Sendable {
    /// Whether the migrated metadata records Faultline's model hash and schema
    /// (and so whether a staged migration's handlers open the store as Faultline's).
    var recordsFaultlineKeys: Bool { get }
    /// Whether the store on `connection` is at `version` (where a staged migration resumes).
    func isStore(_ connection: Connection, at version: ModelVersion) throws -> Bool
    func before(_ connection: Connection, old: ModelVersion, new: ModelVersion, mapping: MigrationMapping,
                metadata: StoreMetadata) throws
    func after(_ connection: Connection, new: ModelVersion, schema: StoreSchema, leftovers: DeferredCleanup.Record) throws
    /// Which of `versions` (oldest first) the store is at, nil for none.
    func position(of connection: Connection, among versions: [ModelVersion]) throws -> Int?
    /// The `CREATE TRIGGER` statements the migrated store gets, decided
    /// before anything changes (from the triggers the store has, where they matter).
    func triggerStatements(mapping: MigrationMapping, on connection: Connection) throws -> [String]
    /// How a custom stage's handlers read and write values the store on
    /// `connection` keeps in Core Data's form (external binary data); nil for none.
    func valueAdapter(model: CheckedModel, schema: StoreSchema, location: StoreLocation,
                      on connection: Connection) throws -> (any StoreValueAdapter)?
    /// Rewrites, after the tables are rebuilt, values whose stored form the
    /// new version changes though their column does not (external binary
    /// data kept in Core Data's form); files it writes or makes obsolete go to `files`.
    func convertValues(_ connection: Connection, mapping: MigrationMapping, files: MigrationFileChanges) throws
}

extension MigrationChecks {
    func valueAdapter(model: CheckedModel, schema: StoreSchema, location: StoreLocation,
                      on connection: Connection) throws -> (any StoreValueAdapter)? { nil }

    func convertValues(_ connection: Connection, mapping: MigrationMapping, files: MigrationFileChanges) throws {}

    /// The new schema's own triggers (Faultline's derived attributes).
    func triggerStatements(mapping: MigrationMapping, on connection: Connection) throws -> [String] {
        mapping.newSchema.triggers.map(\.createStatement)
    }

    func position(of connection: Connection, among versions: [ModelVersion]) throws -> Int? {
        try versions.firstIndex { try isStore(connection, at: $0) }
    }
}

/// A Faultline store: it records the schema its model wrote (`SchemaRecord`),
/// which must be the old model's and must match the tables; afterwards the
/// tables must be the new model's, less the columns a deferred clean-up keeps.
struct RecordedSchemaChecks: MigrationChecks {
    var recordsFaultlineKeys: Bool { true }

    /// A file store in Core Data's external-data form (it records
    /// `StoreBootstrap.externalDataFormatKey`) reads and writes through the
    /// inline-only adapter, as when it is opened; an earlier Faultline's store, raw.
    func valueAdapter(model: CheckedModel, schema: StoreSchema, location: StoreLocation,
                      on connection: Connection) throws -> (any StoreValueAdapter)? {
        try PersistentStoreCoordinator.externalDataAdapter(model: model, schema: schema, location: location,
                                                          upgrading: false, on: connection)
    }

    /// In a store in Core Data's external-data form, a binary attribute whose
    /// `allowsExternalBinaryDataStorage` changed has its column rewritten:
    /// turned on, every value gets marker 1 (inline at any size, as the
    /// store's adapter writes); turned off, the marker is stripped (a file a
    /// Core Data process wrote is read in). A store without the key holds raw
    /// bytes either way, and is converted when next opened for writing.
    func convertValues(_ connection: Connection, mapping: MigrationMapping, files: MigrationFileChanges) throws {
        // The mapping first: a migration that changes no such attribute reads nothing more.
        let conversion = ExternalStorageConversion(mapping: mapping)
        guard !conversion.columns.isEmpty,
              StoreBootstrap.marksExternalData(try StoreBootstrap.metadata(on: connection)) else { return }
        let storeURL: URL? = if case .file(let path) = connection.location { URL(fileURLWithPath: path) } else { nil }
        try conversion.apply(on: connection, storeURL: storeURL, files: files, writesFiles: false)
    }

    func isStore(_ connection: Connection, at version: ModelVersion) throws -> Bool {
        StoreBootstrap.recordedHash(try StoreBootstrap.metadata(on: connection).modelVersionHash, isOf: version.model)
    }

    func before(_ connection: Connection, old: ModelVersion, new: ModelVersion, mapping: MigrationMapping,
                metadata: StoreMetadata) throws {
        try SchemaRecord.verify(old, on: connection, metadata: metadata)
    }

    func after(_ connection: Connection, new: ModelVersion, schema: StoreSchema, leftovers: DeferredCleanup.Record) throws {
        let label = new.label
        let expected = SchemaRecord(schema)
        let actual = try SchemaRecord(reading: connection)
        if leftovers.isEmpty {
            guard expected == actual else {
                throw MigrationError.schemaMismatch(
                    model: label, missing: expected.missing(from: actual), unexpected: actual.missing(from: expected))
            }
            return
        }
        let exempt = Set(schema.tables.filter { leftovers.columns[$0.name] != nil }
            .map { SchemaRecord.normalize($0.createStatement) })
        let missing = expected.missing(from: actual).filter { !exempt.contains($0) }
        guard missing.isEmpty else { throw MigrationError.schemaMismatch(model: label, missing: missing, unexpected: []) }
    }
}
