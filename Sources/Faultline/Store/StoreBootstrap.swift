import Foundation
import FaultlineSQLite

/// Creates a store's schema and bookkeeping rows in an empty database.
public enum StoreBootstrap {
    /// The metadata key under which Faultline records the version hash of the
    /// model that wrote the store (base64 SHA-256, see `CheckedModel.versionHash`).
    public static let modelVersionHashKey = "FaultlineModelVersionHash"

    /// Creates every table, index and trigger of `schema`, one `Z_PRIMARYKEY`
    /// row per entity and the `Z_METADATA` row, in one transaction: on failure
    /// the database is left as it was.
    @discardableResult
    public static func create(
        _ schema: StoreSchema, on connection: Connection, uuid: UUID = UUID()
    ) throws -> StoreMetadata {
        var metadata = StoreMetadata(uuid: uuid.uuidString.uppercased(), entityVersionHashes: schema.model.entityVersionHashes)
        metadata.additional[modelVersionHashKey] = .string(schema.model.versionHash.base64EncodedString())
        // The schema written, so a later migration can check the store against its claimed model.
        metadata.additional[SchemaRecord.metadataKey] = .string(try SchemaRecord(schema).json())
        let plist = try metadata.propertyList()
        try connection.transaction(.immediate) {
            for statement in schema.creationStatements { try connection.execute(statement) }
            for entity in schema.model.entities {
                try connection.execute(
                    "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                    [.integer(Int64(entity.number)), .text(entity.name),
                     .integer(Int64(entity.superentityIndex.map { $0 + 1 } ?? 0))])
            }
            try connection.execute(
                "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                [.text(metadata.uuid), .blob(plist)])
        }
        return metadata
    }

    /// Reads a store's `Z_METADATA` row. A row whose `Z_PLIST` is NULL (Apple's
    /// legacy Notes store has one) reads as metadata without keys or hashes.
    public static func metadata(on connection: Connection) throws -> StoreMetadata {
        let rows = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        guard let row = rows.first, row.count == 2 else { throw StoreMetadataError.missingKey("Z_METADATA row 1") }
        let uuid: String
        if case .text(let text) = row[0] { uuid = text } else { uuid = "" }
        switch row[1] {
        case .blob(let plist):
            return try StoreMetadata(uuid: uuid, propertyList: plist)
        case .null:
            var metadata = StoreMetadata(uuid: uuid, entityVersionHashes: [:])
            metadata.checksum = nil
            metadata.digest = nil
            return metadata
        default:
            throw StoreMetadataError.missingKey("Z_METADATA row 1's Z_PLIST")
        }
    }
}
