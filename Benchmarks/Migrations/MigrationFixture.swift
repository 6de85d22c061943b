import Faultline
import FaultlineSQLite
import Foundation

/// V1 stores with N rows, built once per row count (container for the schema,
/// then one SQL statement in one transaction for the rows), checkpointed and
/// closed; each iteration copies the template to a fresh file outside the clock.
final class TemplateStores {
    private var templates: [Int: URL] = [:]

    func template(rows: Int) throws -> URL {
        if let url = templates[rows] { return url }
        let url = MigrationFixture.scratchURL("template-\(rows)")
        do {
            _ = try PersistentContainer(model: MigrationsModel.v1(), location: .file(url))
        }
        let connection = try Connection(.file(url.path))
        guard case .integer(let entity)? = try connection.scalar(
            "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Sample'") else {
            throw MigrationsBenchError("template: no Z_PRIMARYKEY row for Sample")
        }
        try connection.transaction(.immediate) {
            try connection.execute(MigrationsModel.fillSQL(rows: rows, entity: entity))
            try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [.integer(Int64(rows)), .integer(entity)])
        }
        guard try connection.scalar("SELECT COUNT(*) FROM ZSAMPLE") == .integer(Int64(rows)) else {
            throw MigrationsBenchError("template: row count is not \(rows)")
        }
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        templates[rows] = url
        return url
    }

    func removeAll() {
        for url in templates.values { MigrationFixture.remove(url) }
        templates = [:]
    }
}

/// One iteration's store: a fresh copy of the V1 template.
struct MigrationFixture {
    let url: URL

    init(templates: TemplateStores, rows: Int) throws {
        let template = try templates.template(rows: rows)
        url = Self.scratchURL("store")
        try FileManager.default.copyItem(at: template, to: url)
    }

    /// Inferred lightweight migration of the store to `model`, as an open with
    /// `MigrationOptions(path: .lightweight([V1]))` runs it.
    func migrate(to target: ModelVersion, from v1: ModelVersion) throws {
        try StoreMigrator.migrateIfNeeded(location: .file(url), to: target, options: MigrationOptions(path: .lightweight([v1])))
    }

    func remove() { Self.remove(url) }

    static func scratchURL(_ label: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("faultline-migrations-\(label)-\(UUID().uuidString).sqlite")
    }

    static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}

/// The raw line's state: a copy of the template and a connection on it.
final class RawCopyFixture {
    let fixture: MigrationFixture
    let connection: Connection

    init(templates: TemplateStores, rows: Int) throws {
        fixture = try MigrationFixture(templates: templates, rows: rows)
        connection = try Connection(.file(fixture.url.path))
    }

    func run() throws {
        for statement in MigrationsModel.rawCopy { try connection.execute(statement) }
    }
}

struct MigrationsBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
