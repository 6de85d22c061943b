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

    /// Core Data's persistent-history tables, which a store keeps beside
    /// whichever model it has.
    package static let historyTables = ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"]

    private static let readingSQL =
        "SELECT sql FROM sqlite_master WHERE type IN ('table', 'index', 'trigger') AND sql IS NOT NULL "
        + "AND name NOT LIKE 'sqlite_%' AND upper(tbl_name) NOT IN ("
        + historyTables.map { "'\($0)'" }.joined(separator: ", ") + ")"

    /// What the store actually holds for its model, from `sqlite_master`:
    /// Core Data's persistent-history tables and their indexes, which a store
    /// keeps beside whichever model it has, are not part of it.
    public init(reading connection: Connection) throws {
        let rows = try connection.rows(Self.readingSQL)
        self.init(statements: rows.compactMap { row -> String? in
            if case .text(let sql)? = row.first { return sql }
            return nil
        })
    }

    /// Whitespace removed, the only difference SQLite's own rewriting makes.
    package static func normalize(_ sql: String) -> String {
        String(sql.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }.map(Character.init))
    }

    /// The tables and indexes alone.
    package var withoutTriggers: SchemaRecord {
        var record = self
        record.statements = statements.filter { !$0.uppercased().hasPrefix("CREATETRIGGER") }
        return record
    }

    /// Statements of `self` absent from `other`.
    package func missing(from other: SchemaRecord) -> [String] {
        let present = Set(other.statements)
        return statements.filter { !present.contains($0) }
    }

    /// The JSON written under `metadataKey`.
    package func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
