import Foundation
import FaultlineSQLite

/// The schema Faultline wrote, as a set of `CREATE` statements with all
/// whitespace removed (so `ALTER TABLE ADD COLUMN`'s spacing and Core Data's
/// compare equal), and how it is checked against a store.
public struct SchemaRecord: Sendable, Equatable, Codable {
    /// The metadata key holding the record as JSON.
    public static let metadataKey = "FaultlineSchema"

    /// Normalised `CREATE TABLE/INDEX/TRIGGER` statements, sorted.
    public var statements: [String]

    public init(statements: some Sequence<String>) {
        self.statements = Set(statements.map(Self.normalize)).sorted()
    }

    /// The record of what `schema` creates (bookkeeping tables included).
    public init(_ schema: StoreSchema) {
        self.init(statements: schema.creationStatements)
    }

    /// What the store actually holds, from `sqlite_master`.
    public init(reading connection: Connection) throws {
        let rows = try connection.rows(
            "SELECT sql FROM sqlite_master WHERE type IN ('table', 'index', 'trigger') AND sql IS NOT NULL "
                + "AND name NOT LIKE 'sqlite_%'")
        self.init(statements: rows.compactMap { row -> String? in
            if case .text(let sql)? = row.first { return sql }
            return nil
        })
    }

    /// Whitespace removed, the only difference SQLite's own rewriting makes.
    static func normalize(_ sql: String) -> String {
        String(sql.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }.map(Character.init))
    }

    /// Statements of `self` absent from `other`.
    func missing(from other: SchemaRecord) -> [String] {
        let present = Set(other.statements)
        return statements.filter { !present.contains($0) }
    }

    /// The JSON written under `metadataKey`.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The record stored in `metadata`, if any.
    static func stored(in metadata: StoreMetadata) -> SchemaRecord? {
        guard case .string(let text)? = metadata.additional[metadataKey] else { return nil }
        return try? JSONDecoder().decode(SchemaRecord.self, from: Data(text.utf8))
    }

    /// Throws `MigrationError.schemaMismatch` unless the store's schema is
    /// exactly what `version`'s model writes: the recorded description (when
    /// the store has one) and `sqlite_master` must both equal the compiled one.
    static func verify(_ version: ModelVersion, on connection: Connection, metadata: StoreMetadata) throws {
        let expected = SchemaRecord(try StoreSchema(compiling: version.model))
        if let recorded = stored(in: metadata), recorded != expected {
            throw MigrationError.schemaMismatch(
                model: version.label, missing: expected.missing(from: recorded), unexpected: recorded.missing(from: expected))
        }
        let actual = try SchemaRecord(reading: connection)
        guard actual == expected else {
            throw MigrationError.schemaMismatch(
                model: version.label, missing: expected.missing(from: actual), unexpected: actual.missing(from: expected))
        }
    }
}

extension StoreMetadata {
    /// This metadata rewritten for a store now holding `model`'s schema.
    func migrated(to model: CheckedModel, schema: StoreSchema) throws -> StoreMetadata {
        var result = self
        result.entityVersionHashes = model.entityVersionHashes
        result.checksum = StoreMetadata.checksum(of: model.entityVersionHashes)
        result.digest = StoreMetadata.digest(of: model.entityVersionHashes)
        result.additional[StoreBootstrap.modelVersionHashKey] = .string(model.versionChecksum)
        result.additional[SchemaRecord.metadataKey] = .string(try SchemaRecord(schema).json())
        return result
    }

    /// Writes this metadata into the store's `Z_METADATA` row.
    func write(on connection: Connection) throws {
        try connection.execute("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1", [.blob(try propertyList())])
    }

    /// The version hash of the model that wrote the store, if recorded.
    var modelVersionHash: String? {
        if case .string(let hash)? = additional[StoreBootstrap.modelVersionHashKey] { return hash }
        return nil
    }
}
