import Foundation
import FaultlineSQLite

/// Brings a store's indexes to a schema's: drops those the schema lacks (by
/// their normalised `CREATE` text, so a changed index is dropped and made
/// again), and creates the missing ones. Indexes of tables that are not the
/// schema's — Core Data's persistent-history tables, an app's own tables
/// beside Core Data's — are not the migration's and stay. A new uniqueness index is preceded
/// by a check of the existing rows, so a violation is reported with the
/// duplicated values rather than as SQLite's bare constraint error.
///
/// A uniqueness constraint a kept table declares with a `UNIQUE` clause (Core
/// Data of iOS 10 and before) is already there: its autoindex stands for the
/// compiled `Z_<Entity>_UNIQUE_…` index (`UniqueClauseIndexes`, the opener's
/// rule), which is then not created beside it — the same constraint twice, and
/// an index the matcher would report as the store's only. `MigrationRun`
/// rebuilt any table whose clause no longer stands for the model's constraint.
/// Core Data migrates such a store (objc.io's Moody tests); whether it keeps
/// the clause or rebuilds the table, the opener accepts either layout, so the
/// table is kept and its rows are not copied.
struct IndexMigration {
    let connection: Connection
    let schema: StoreSchema
    /// Whether the store had autoindexes before the migration began
    /// (`UniqueClauseIndexes.storeHasAutoindexes`); none means no stand-ins.
    let hadAutoindexes: Bool

    func apply() throws {
        let wanted = Dictionary(schema.indexes.map { (SchemaRecord.normalize($0.createStatement), $0) },
                                uniquingKeysWith: { first, _ in first })
        let tables = Set(schema.tables.map { $0.name.uppercased() })
        // The autoindexes are SQLite's (`schemaObjects` leaves them out) and
        // cannot be dropped; the indexes they stand for count as present.
        let standIns = hadAutoindexes ? try UniqueClauseIndexes.standIns(in: connection, schema: schema) : [:]
        var present = Set<String>()
        for index in try connection.schemaObjects(ofType: "index") where tables.contains(index.table.uppercased()) {
            guard let sql = index.sql else { continue }
            let normalized = SchemaRecord.normalize(sql)
            if wanted[normalized] != nil { present.insert(normalized); continue }
            try connection.dropSchemaObject(ofType: .index, named: index.name)
        }
        for index in schema.indexes where !present.contains(SchemaRecord.normalize(index.createStatement)) {
            if standIns[index.name.uppercased()] != nil { continue }
            if index.isUnique { try checkUnique(index) }
            try connection.execute(index.createStatement)
        }
    }

    /// Throws `constraintViolation` with up to 20 duplicated value tuples.
    private func checkUnique(_ index: StoreIndex) throws {
        let columns = index.terms.compactMap { $0.split(separator: " ").first.map(String.init) }
        guard !columns.isEmpty else { return }
        let duplicates = try MigrationStatements.duplicateGroups(
            in: index.table, columns: columns, condition: index.whereClause, on: connection).map(\.values)
        guard !duplicates.isEmpty else { return }
        let (entity, properties) = describe(index)
        throw MigrationError.constraintViolation(entity: entity, properties: properties, duplicates: duplicates)
    }

    /// The entity and property names behind a uniqueness index's name.
    private func describe(_ index: StoreIndex) -> (String, [String]) {
        for entity in schema.model.entities {
            for constraint in entity.uniquenessConstraints {
                let names = constraint.map { reference -> String in
                    switch reference {
                    case .attribute(let i): return entity.attributes.indices.contains(i) ? entity.attributes[i].name : "?"
                    case .relationship(let i): return entity.relationships.indices.contains(i) ? entity.relationships[i].name : "?"
                    case .composite(let i): return entity.composites.indices.contains(i) ? entity.composites[i].name : "?"
                    }
                }
                if index.name == "Z_\(entity.name)_UNIQUE_\(names.joined(separator: "_"))" { return (entity.name, names) }
            }
        }
        return (index.table, index.terms)
    }
}
