import Foundation
import FaultlineSQLite

/// Converts a store an earlier Faultline wrote — external-storage binary
/// attributes kept as their raw bytes — to Core Data's form (marker 1, then
/// the bytes), which Faultline's file stores now keep so Core Data reads them
/// (CoreDataValueAdapter.swift).
///
/// Such a store carries Faultline's model hash but not
/// `StoreBootstrap.externalDataFormatKey`. Opened for writing, every non-NULL
/// value of those columns gets the marker and the key is written, in one
/// write transaction: a crash leaves the old store or the converted one.
/// Opened read-only, it is read as it is (raw bytes, no adapter).
///
/// What cannot be told apart: a store an earlier Faultline wrote that was
/// also written through `coreDataStoreAt` holds marked values among the raw
/// ones, and those get a second marker.
enum ExternalDataFormatUpgrade {
    /// The (table, column) of every attribute of `schema` stored with markers, each once.
    static func markedColumns(of schema: StoreSchema) -> [(table: String, column: String)] {
        var seen: Set<String> = []
        var columns: [(table: String, column: String)] = []
        for entity in schema.model.entities {
            for attribute in entity.attributes
            where attribute.declaringEntityIndex == entity.index && attribute.isStored && attribute.storesExternalDataMarker {
                let mapping = schema.entities[entity.index]
                guard let column = mapping.column(forAttributeAt: attribute.index),
                      seen.insert(mapping.table + "." + column).inserted else { continue }
                columns.append((mapping.table, column))
            }
        }
        return columns
    }

    /// Converts the store on `connection` (a writer, outside any transaction)
    /// when it needs it; returns whether the store is in Core Data's form now.
    static func upgradeIfNeeded(schema: StoreSchema, on connection: Connection) throws -> Bool {
        if StoreBootstrap.marksExternalData(try StoreBootstrap.metadata(on: connection)) { return true }
        return try StoreWriter(migrating: connection).write { connection in
            // Again inside the IMMEDIATE transaction: another process may have converted it meanwhile.
            var metadata = try StoreBootstrap.metadata(on: connection)
            guard !StoreBootstrap.marksExternalData(metadata) else { return (true, nil) }
            try convert(markedColumns(of: schema), on: connection)
            metadata.additional[StoreBootstrap.externalDataFormatKey] = .string(StoreBootstrap.externalDataFormat)
            try BookkeepingStatements.replaceMetadataPropertyList(try metadata.propertyList(), on: connection)
            return (true, nil)
        }.result
    }

    /// Prefixes marker 1 to every non-NULL value of `columns`, one bound
    /// UPDATE by key per row (values are read one at a time, never all at once).
    static func convert(_ columns: [(table: String, column: String)], on connection: Connection) throws {
        for (table, column) in columns {
            let read = EntityReadStatements.columns([column], ofRowIn: table)
            let write = EntityWriteStatements.setColumn(column, ofRowIn: table)
            for row in try connection.rows(EntityWriteStatements.keys(withValueIn: column, of: table)) {
                guard let key = row.first, let value = try connection.rows(read, [key]).first?.first else { continue }
                let marked: SQLValue
                switch value {
                case .blob(let bytes): marked = .blob(Data([MarkedDataAttributes.inlineMarker]) + bytes)
                // A binary attribute's value stored as text (written by hand): its UTF-8 bytes.
                case .text(let text): marked = .blob(Data([MarkedDataAttributes.inlineMarker]) + Data(text.utf8))
                default: continue
                }
                try connection.execute(write, [marked, key])
            }
        }
    }
}
