import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Stores, models and checks shared by the migration suites.
enum MigrationSupport {
    static func temporaryStore() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("faultline-migration-\(UUID().uuidString).sqlite")
    }

    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    /// A model built with `body`, after `configure` (e.g. renaming identifiers) ran.
    static func model(
        _ configure: (ManagedObjectModel) -> Void = { _ in }, @ModelBuilder _ body: () -> [Entity]
    ) -> ManagedObjectModel {
        let model = ManagedObjectModel(body)
        configure(model)
        return model
    }

    /// Sets `renamingIdentifier` of `entity.property` (or of the entity when `property` is nil).
    static func rename(_ model: ManagedObjectModel, entity: String, property: String? = nil, from old: String) {
        guard let description = model.entitiesByName[entity] else { return }
        if let property {
            description.properties.first { $0.name == property }?.renamingIdentifier = old
        } else {
            description.renamingIdentifier = old
        }
    }

    /// Writes rows through a context of a container on `url` with `model`.
    static func populate(_ url: URL, _ model: ManagedObjectModel, _ body: @escaping @Sendable (ManagedObjectContext) throws -> Void) throws {
        let container = try PersistentContainer(model: model, location: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try body(context)
            try context.save()
        }
    }

    /// Every row of every table (bookkeeping included), sorted: the store's content.
    static func content(_ url: URL, excludingMetadata: Bool = false) throws -> [String: [[SQLValue]]] {
        let connection = try Connection(.file(url.path))
        var result: [String: [[SQLValue]]] = [:]
        let tables = try connection.rows("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
        for row in tables {
            guard case .text(let name) = row[0] else { continue }
            result["schema:" + name] = [row]
        }
        for row in try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'") {
            guard case .text(let name) = row[0], !(excludingMetadata && name == "Z_METADATA") else { continue }
            result[name] = try connection.rows("SELECT * FROM \(name) ORDER BY 1, 2").map { $0 }
        }
        return result
    }

    /// Rows of `sql` on the store at `url`.
    static func rows(_ url: URL, _ sql: String) throws -> [[SQLValue]] {
        try Connection(.file(url.path)).rows(sql)
    }

    /// After a migration: integrity ok; schema equal to a fresh store's for
    /// `model` (sqlite_master entries as sets, modulo whitespace); the
    /// recorded hash is the model's.
    static func expectMigrated(_ url: URL, to model: ManagedObjectModel) throws {
        let connection = try Connection(.file(url.path))
        #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"))
        let fresh = try Connection(.inMemory)
        try StoreBootstrap.create(try StoreSchema(compiling: model.checked()), on: fresh)
        let expected = try SchemaRecord(reading: fresh)
        let actual = try SchemaRecord(reading: connection)
        #expect(actual.missing(from: expected) == [])
        #expect(expected.missing(from: actual) == [])
        let metadata = try StoreBootstrap.metadata(on: connection)
        #expect(metadata.modelVersionHash == (try model.checked().versionChecksum))
    }

    /// The object graph reads every object of `entity` and saves a change.
    static func expectReadAndSave(_ container: PersistentContainer, entity: String, key: String, value: AttributeValue) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let objects = try context.fetch(FetchRequest(entityName: entity))
            #expect(!objects.isEmpty)
            if let first = objects.first {
                try first.setValue(value.anyValue, forKey: key)
            }
            try context.save()
        }
    }
}
