import Foundation
import FaultlineSQLite

/// Rewrites, inside the migration of a store in Core Data's external-data
/// form (a Core Data store, a Faultline file store), the columns of binary
/// attributes whose `allowsExternalBinaryDataStorage` changed between the
/// versions. The flag changes the column's format (CoreDataValueAdapter.swift),
/// not its declared type, so the table rebuild copies the old bytes as they
/// are; left so, the new model would read a marker as the value's first byte
/// (turned off) or a value's first byte as a marker (turned on).
///
/// - Turned off: marker 1 is stripped; marker 2's file is read and its bytes
///   stored inline, the file removed once the migration commits. A missing
///   file refuses the migration (the value would silently become nil).
///   Bytes under another marker are kept: both formats read them as stored.
/// - Turned on: each value is stored as the adapter's encode stores it —
///   inline after marker 1, or over the threshold in a new file (removed
///   again if the migration rolls back).
struct ExternalStorageConversion {
    struct Column {
        let entity: String
        let attribute: String
        let table: String
        let column: String
        /// True when the new version stores the column with markers.
        let toMarked: Bool
    }

    let columns: [Column]

    init(mapping: MigrationMapping) {
        var columns: [Column] = []
        for entity in mapping.new.model.entities {
            for attribute in entity.attributes
            where attribute.isStored && attribute.declaringEntityIndex == entity.index
                && attribute.attributeType == .binaryDataAttributeType {
                guard let old = mapping.oldAttribute(attribute, of: entity), old.isStored,
                      old.attributeType == .binaryDataAttributeType,
                      old.allowsExternalBinaryDataStorage != attribute.allowsExternalBinaryDataStorage,
                      let column = mapping.newSchema.entities[entity.index].column(forAttributeAt: attribute.index)
                else { continue }
                columns.append(Column(entity: entity.name, attribute: attribute.name,
                                      table: mapping.newSchema.entities[entity.index].table, column: column,
                                      toMarked: attribute.allowsExternalBinaryDataStorage))
            }
        }
        self.columns = columns
    }

    /// Converts every row's value; each row is one bound UPDATE by `Z_PK`.
    /// `writesFiles` false (a Faultline store): every value turned on is
    /// stored inline. `storeURL` nil (in memory): no file is read or written.
    func apply(on connection: Connection, storeURL: URL?, files: MigrationFileChanges, writesFiles: Bool = true) throws {
        let directory = storeURL.map(CoreDataValueAdapter.externalDataDirectory(forStoreAt:))
        for column in columns {
            for row in try MigrationStatements.keyedValues(of: column.column, in: column.table, on: connection) {
                guard row.count == 2, case .blob(let stored) = row[1] else { continue }
                let converted = column.toMarked
                    ? try marked(stored, directory: writesFiles ? directory : nil, files: files)
                    : try inlined(stored, column: column, directory: directory, files: files)
                guard let converted, converted != stored else { continue }
                try MigrationStatements.setValue(.blob(converted), of: column.column, in: column.table, key: row[0], on: connection)
            }
        }
    }

    /// The bytes a marked value stands for, stored plainly; nil to keep it as stored.
    private func inlined(_ stored: Data, column: Column, directory: URL?, files: MigrationFileChanges) throws -> Data? {
        switch stored.first {
        case CoreDataValueAdapter.inlineMarker:
            return Data(stored.dropFirst())
        case CoreDataValueAdapter.externalMarker:
            guard let name = CoreDataValueAdapter.fileName(stored.dropFirst()) else { return nil }
            guard let file = directory?.appendingPathComponent(name), let bytes = try? Data(contentsOf: file) else {
                throw MigrationError.unsupportedChange(
                    entity: column.entity, property: column.attribute,
                    reason: "external storage turned off, but the file \(name) holding a value is missing from "
                        + (directory?.path ?? "an in-memory store"))
            }
            files.released(file)
            return bytes
        default:
            return nil
        }
    }

    /// A plain value in Core Data's external-storage form, as the adapter
    /// writes it; with no `directory`, inline at any size.
    private func marked(_ bytes: Data, directory: URL?, files: MigrationFileChanges) throws -> Data {
        guard let directory else { return Data([CoreDataValueAdapter.inlineMarker]) + bytes }
        let (stored, file) = try CoreDataValueAdapter.stored(bytes, in: directory)
        if let file { files.wrote(file) }
        return stored
    }
}
