import Foundation
import FaultlineSQLite

// How a migration checks that a store holds the schema its claimed old model
// writes, and rewrites the metadata for the new one. The record itself is the
// schema's (FaultlineSchema/SchemaRecord.swift); reading it from and writing it
// into a store's metadata is the migration's business.

extension SchemaRecord {
    /// The record stored in `metadata`, if any.
    static func stored(in metadata: StoreMetadata) -> SchemaRecord? {
        guard case .string(let text)? = metadata.additional[metadataKey] else { return nil }
        return try? JSONDecoder().decode(SchemaRecord.self, from: Data(text.utf8))
    }

    /// Throws `MigrationError.schemaMismatch` unless the store's schema is
    /// what `version`'s model writes: the recorded description (when the store
    /// has one) and `sqlite_master` must both equal the compiled one, tables
    /// and indexes statement for statement. Triggers named `Z_DA_…` are
    /// Faultline's derived-attribute triggers, whose names and text are the
    /// Faultline version's rather than the model's (an older one wrote the same
    /// derivations as other triggers), and the migration replaces them all; any
    /// other trigger is refused.
    static func verify(_ version: ModelVersion, on connection: Connection, metadata: StoreMetadata) throws {
        let expected = SchemaRecord(try StoreSchema(compiling: version.model)).withoutTriggers
        if let recorded = stored(in: metadata)?.withoutTriggers, recorded != expected {
            throw MigrationError.schemaMismatch(
                model: version.label, missing: expected.missing(from: recorded), unexpected: recorded.missing(from: expected))
        }
        let actual = try SchemaRecord(reading: connection).withoutTriggers
        let foreignTriggers = try connection.schemaObjectNames(ofType: "trigger")
            .filter { !$0.uppercased().hasPrefix(StoreTrigger.namePrefix) }.sorted()
        guard actual == expected, foreignTriggers.isEmpty else {
            throw MigrationError.schemaMismatch(
                model: version.label, missing: expected.missing(from: actual),
                unexpected: actual.missing(from: expected) + foreignTriggers.map { "TRIGGER \($0)" })
        }
    }
}

extension StoreMetadata {
    /// This metadata rewritten for a store now holding `model`'s schema: the
    /// entity hashes and what is computed from them, the model's version
    /// identifiers (as Core Data's migration writes them); Faultline's own keys only
    /// for a Faultline store (a Core Data store keeps every other key as it was).
    func migrated(to model: CheckedModel, schema: StoreSchema, recordsFaultlineKeys: Bool = true) throws -> StoreMetadata {
        var result = self
        result.entityVersionHashes = model.entityVersionHashes
        result.versionIdentifiers = StoreMetadata.versionIdentifiers(of: model)
        // Older Core Data stores carry no checksum or digest: none is added.
        if recordsFaultlineKeys || checksum != nil { result.checksum = StoreMetadata.checksum(of: model.entityVersionHashes) }
        if recordsFaultlineKeys || digest != nil { result.digest = StoreMetadata.digest(of: model.entityVersionHashes) }
        guard recordsFaultlineKeys else { return result }
        result.additional[StoreBootstrap.modelVersionHashKey] = .string(model.versionChecksum)
        result.additional[SchemaRecord.metadataKey] = .string(try SchemaRecord(schema).json())
        return result
    }

    /// Writes this metadata into the store's `Z_METADATA` row.
    func write(on connection: Connection) throws {
        try BookkeepingStatements.replaceMetadataPropertyList(try propertyList(), on: connection)
    }

    /// The version hash of the model that wrote the store, if recorded.
    var modelVersionHash: String? {
        if case .string(let hash)? = additional[StoreBootstrap.modelVersionHashKey] { return hash }
        return nil
    }
}
