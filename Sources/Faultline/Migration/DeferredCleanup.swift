import Foundation
import FaultlineSQLite

/// Deferred clean-up, Core Data's deferred lightweight migration: a migration
/// with `deferCleanup` leaves removed columns (in tables otherwise kept in
/// place) and removed entities' tables where they are and records them in
/// Z_METADATA, under `FaultlineDeferredCleanup` and Core Data's own
/// `NSPersistentStoreDeferredLightweightMigrationOptionKey`. The store already
/// has the new model's hash and is opened and written with the new model at
/// once: the leftovers are never read, and inserts leave them NULL.
/// `finish` rebuilds those tables to the exact schema and clears the record.
///
/// Differences from Core Data: a table whose change needs a rebuild anyway
/// (a type widened, a column added in the middle) is rebuilt at once, removed
/// columns included; only the work that can wait is deferred. Migrating a store
/// that still has deferred work finishes that work first.
public enum DeferredCleanup {
    static let recordKey = "FaultlineDeferredCleanup"
    static let coreDataKey = StoreMetadata.deferredMigrationKey

    /// What waits: whole tables to drop and columns to drop per table.
    struct Record: Codable, Equatable {
        var tables: [String] = []
        var columns: [String: [String]] = [:]

        var isEmpty: Bool { tables.isEmpty && columns.isEmpty }

        static func stored(in metadata: StoreMetadata) -> Record? {
            guard case .string(let text)? = metadata.additional[recordKey] else { return nil }
            return try? JSONDecoder().decode(Record.self, from: Data(text.utf8))
        }

        /// Records (or, when empty, clears) the pending work in `metadata`.
        func write(into metadata: inout StoreMetadata) {
            guard !isEmpty, let data = try? JSONEncoder().encode(self) else {
                metadata.additional[recordKey] = nil
                metadata.additional[coreDataKey] = nil
                return
            }
            metadata.additional[recordKey] = .string(String(decoding: data, as: UTF8.self))
            metadata.additional[coreDataKey] = .boolean(true)
        }
    }

    /// Whether the store on `connection` has clean-up waiting.
    public static func isPending(on connection: Connection) throws -> Bool {
        Record.stored(in: try StoreBootstrap.metadata(on: connection)) != nil
    }

    /// Performs the recorded clean-up for a store holding `model`, in one
    /// transaction (a savepoint inside an open one), and clears the record.
    public static func finish(on connection: Connection, model: CheckedModel) throws {
        try finish(using: StoreWriter(migrating: connection), model: model)
    }

    /// The same, through the store's `writer` (foreign keys off around it).
    static func finish(using writer: StoreWriter, model: CheckedModel) throws {
        try writer.write(foreignKeysOff: true) { connection in
            try finishInTransaction(on: connection, model: model)
            return ((), nil)
        }
    }

    private static func finishInTransaction(on connection: Connection, model: CheckedModel) throws {
        var metadata = try StoreBootstrap.metadata(on: connection)
        guard let record = Record.stored(in: metadata) else { return }
        let schema = try StoreSchema(compiling: model)
        for name in try connection.schemaObjectNames(ofType: "trigger") { try connection.dropSchemaObject(ofType: .trigger, named: name) }
        for table in schema.tables where record.columns[table.name] != nil {
            let aside = MigrationRun.asidePrefix + table.name
            try connection.renameTable(table.name, to: aside)
            try connection.execute(table.createStatement)
            try connection.copyRows(columns: table.columns.map(\.name), from: aside, into: table.name)
            try connection.dropSchemaObject(ofType: .table, named: aside)
        }
        let existing = Set(try connection.schemaObjectNames(ofType: "table"))
        let modelTables = Set(schema.tables.map(\.name))
        for table in record.tables where existing.contains(table) && !modelTables.contains(table) {
            try connection.dropSchemaObject(ofType: .table, named: table)
        }
        try IndexMigration(connection: connection, schema: schema,
                           hadAutoindexes: try UniqueClauseIndexes.storeHasAutoindexes(connection)).apply()
        for trigger in schema.triggers { try connection.execute(trigger.createStatement) }
        Record().write(into: &metadata)
        try metadata.write(on: connection)
        let expected = SchemaRecord(schema)
        let actual = try SchemaRecord(reading: connection)
        guard expected == actual else {
            throw MigrationError.schemaMismatch(
                model: model.versionChecksum, missing: expected.missing(from: actual), unexpected: actual.missing(from: expected))
        }
    }
}
