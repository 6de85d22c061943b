import Foundation
import FaultlineSQLite

/// Creates a store's schema and bookkeeping rows in an empty database.
public enum StoreBootstrap {
    /// The metadata key under which Faultline records the version hash of the
    /// model that wrote the store (base64 SHA-256, see `CheckedModel.versionHash`).
    public static let modelVersionHashKey = "FaultlineModelVersionHash"

    /// The metadata key recording how the store keeps binary attributes that
    /// allow external storage: `externalDataFormat` is Core Data's (a marker
    /// byte, then the bytes inline or a file's name: CoreDataValueAdapter.swift).
    /// A Faultline store without it was written before that (raw bytes) and
    /// is converted once when opened for writing (`ExternalDataFormatUpgrade`).
    public static let externalDataFormatKey = "FaultlineExternalDataFormat"
    public static let externalDataFormat = "CoreDataMarkers"

    /// Whether `metadata` records Core Data's external-data format.
    static func marksExternalData(_ metadata: StoreMetadata) -> Bool {
        metadata.additional[externalDataFormatKey] == .string(externalDataFormat)
    }

    /// Whether `recorded` (a store's `modelVersionHashKey`) names `model`: its
    /// version hash, or Faultline's own hash, which a store written before the
    /// model adopted Core Data's entity hashes recorded.
    static func recordedHash(_ recorded: String?, isOf model: CheckedModel) -> Bool {
        guard let recorded else { return false }
        return recorded == model.versionChecksum || recorded == model.faultlineVersionHash.base64EncodedString()
    }

    /// Creates every table, index and trigger of `schema`, one `Z_PRIMARYKEY`
    /// row per entity and the `Z_METADATA` row, in one transaction of a
    /// `StoreWriter` over `connection`: on failure the database is left as it was.
    /// `marksExternalData`: whether the store keeps external-storage binary
    /// attributes in Core Data's form (every file store; an in-memory one keeps raw bytes).
    @discardableResult
    public static func create(
        _ schema: StoreSchema, on connection: Connection, uuid: UUID = UUID(), marksExternalData: Bool = true
    ) throws -> StoreMetadata {
        try StoreWriter(migrating: connection).write { connection in
            (try create(schema, inTransactionOn: connection, uuid: uuid, marksExternalData: marksExternalData), nil)
        }.result
    }

    /// The same, inside the caller's write transaction.
    static func create(_ schema: StoreSchema, inTransactionOn connection: Connection, uuid: UUID = UUID(),
                       marksExternalData: Bool = true) throws -> StoreMetadata {
        var metadata = StoreMetadata(uuid: uuid.uuidString.uppercased(), entityVersionHashes: schema.model.entityVersionHashes)
        metadata.versionIdentifiers = StoreMetadata.versionIdentifiers(of: schema.model)
        metadata.additional[modelVersionHashKey] = .string(schema.model.versionHash.base64EncodedString())
        if marksExternalData { metadata.additional[externalDataFormatKey] = .string(externalDataFormat) }
        // The schema written, so a later migration can check the store against its claimed model.
        metadata.additional[SchemaRecord.metadataKey] = .string(try SchemaRecord(schema).json())
        let plist = try metadata.propertyList()
        for statement in schema.creationStatements { try connection.execute(statement) }
        for entity in schema.model.entities {
            try BookkeepingStatements.insertEntity(
                number: entity.number, name: entity.name, superNumber: entity.superentityIndex.map { $0 + 1 } ?? 0,
                keyMax: 0, on: connection)
        }
        try BookkeepingStatements.insertMetadata(uuid: metadata.uuid, propertyList: plist, on: connection)
        return metadata
    }

    /// Reads a store's `Z_METADATA` row. A row whose `Z_PLIST` is NULL (Apple's
    /// legacy Notes store has one) reads as metadata without keys or hashes.
    public static func metadata(on connection: Connection) throws -> StoreMetadata {
        guard let (uuid, plist) = try BookkeepingStatements.metadataRow(on: connection) else {
            throw StoreMetadataError.missingKey("Z_METADATA row 1")
        }
        switch plist {
        case .blob(let plist):
            return try StoreMetadata(uuid: uuid, propertyList: plist)
        case .null:
            var metadata = StoreMetadata(uuid: uuid, entityVersionHashes: [:])
            metadata.checksum = nil
            metadata.digest = nil
            return metadata
        case .integer: throw StoreMetadataError.notAPropertyList("it holds an integer, not a blob")
        case .real: throw StoreMetadataError.notAPropertyList("it holds a real, not a blob")
        case .text: throw StoreMetadataError.notAPropertyList("it holds text, not a blob")
        }
    }
}
