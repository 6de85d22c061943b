import Foundation
import FaultlineSQLite

/// Decides whether a store Core Data wrote is the model's, on a read-only
/// connection, before anything opens the store for writing.
///
/// Three checks, every difference collected (not just the first):
/// 1. Entity hashes, when the caller has Core Data's own (a `.momd`'s
///    `VersionInfo.plist`): the store's `NSStoreModelVersionHashes` must equal
///    them entity for entity.
/// 2. The schema, always: the store's tables, columns (name and declared type)
///    and indexes must be exactly those Faultline compiles for the model,
///    ignoring `Z_MODELCACHE` and the persistent-history tables. Faultline
///    cannot recompute Core Data's hashes, so without them this is the match;
///    with them it still guarantees Faultline's compiled layout reads the store.
/// 3. Entity numbers: `Z_PRIMARYKEY` rows below 16001 must be the model's
///    (number, name, super-entity number). Faultline bakes entity numbers into
///    its plans, so a different numbering is refused, not remapped. A row may
///    keep the entity's old name when the model renames it (its renaming
///    identifier): Core Data's lightweight migration leaves the row as it was
///    (CoreDataPlus's migrated `SampleModel_V2`: ExpensiveSportCar, now LuxuryCar).
enum CoreDataStoreMatcher {
    static func differences(
        store connection: Connection, model: CheckedModel, schema: StoreSchema,
        coreDataEntityVersionHashes modelHashes: [String: Data]?
    ) throws -> [CoreDataStoreDifference] {
        var differences: [CoreDataStoreDifference] = []
        if let modelHashes {
            let metadata = try StoreBootstrap.metadata(on: connection)
            differences += hashDifferences(store: metadata.entityVersionHashes, model: modelHashes)
        }
        differences += try schemaDifferences(store: SQLiteSchemaSnapshot.read(connection), schema: schema)
        differences += try entityNumberDifferences(store: connection, model: model)
        return differences
    }

    static func hashDifferences(store: [String: Data], model: [String: Data]) -> [CoreDataStoreDifference] {
        var differences: [CoreDataStoreDifference] = []
        for name in Set(store.keys).union(model.keys).sorted() {
            switch (store[name], model[name]) {
            case (.some, nil): differences.append(.entityOnlyInStoreHashes(name))
            case (nil, .some): differences.append(.entityOnlyInModelHashes(name))
            case (let storeHash?, let modelHash?) where storeHash != modelHash:
                differences.append(.hashDiffers(entity: name, store: hex(storeHash), model: hex(modelHash)))
            default: break
            }
        }
        return differences
    }

    /// The schema Faultline would create for `schema`, read back from an
    /// in-memory database, compared with `store`.
    static func schemaDifferences(store: SQLiteSchemaSnapshot, schema: StoreSchema) throws -> [CoreDataStoreDifference] {
        let compiled = try UniqueClauseIndexes.compiled(schema)

        var owners: [String: [String]] = [:]
        for mapping in schema.entities {
            let entity = schema.model.entities[mapping.entityIndex]
            owners[mapping.table.uppercased(), default: []].append(entity.name)
            for relationship in entity.relationships {
                guard case .joinTable(let table, _, _, _) = mapping.relationships[relationship.index],
                      relationship.declaringEntityIndex == entity.index else { continue }
                owners[table.uppercased(), default: []].append("\(entity.name).\(relationship.name)")
            }
        }
        var differences: [CoreDataStoreDifference] = []
        for table in Set(store.tables.keys).union(compiled.tables.keys).sorted() {
            let entities = owners[table] ?? []
            guard let storeColumns = store.tables[table] else {
                differences.append(.tableOnlyInModel(table: table, entities: entities))
                continue
            }
            guard let modelColumns = compiled.tables[table] else {
                differences.append(.tableOnlyInStore(table: table))
                continue
            }
            for name in Set(storeColumns.keys).union(modelColumns.keys).sorted() {
                switch (storeColumns[name], modelColumns[name]) {
                case (let column?, nil):
                    differences.append(.columnOnlyInStore(
                        table: table, column: name, declaredType: column.declaredType, entities: entities))
                case (nil, let column?):
                    differences.append(.columnOnlyInModel(
                        table: table, column: name, declaredType: column.declaredType, entities: entities))
                case (let inStore?, let inModel?) where inStore != inModel:
                    differences.append(.columnTypeDiffers(
                        table: table, column: name,
                        store: describe(inStore), model: describe(inModel), entities: entities))
                default: break
                }
            }
        }
        let (storeIndexes, compiledIndexes) = pairingTableConstraints(store: store.indexes, compiled: compiled.indexes)
        for name in Set(storeIndexes.keys).union(compiledIndexes.keys).sorted() {
            switch (storeIndexes[name], compiledIndexes[name]) {
            case (let index?, nil):
                differences.append(.indexOnlyInStore(table: index.table, index: name, definition: index.definition))
            case (nil, let index?):
                differences.append(.indexOnlyInModel(table: index.table, index: name, definition: index.definition))
            case (let inStore?, let inModel?) where inStore != inModel:
                differences.append(.indexOnlyInStore(table: inStore.table, index: name, definition: inStore.definition))
                differences.append(.indexOnlyInModel(table: inModel.table, index: name, definition: inModel.definition))
            default: break
            }
        }
        return differences
    }

    /// A store's `UNIQUE`-clause autoindex and the compiled unique index it
    /// stands for (`UniqueClauseIndexes`) are the same constraint: both leave
    /// the lists.
    private static func pairingTableConstraints(
        store: [String: SQLiteSchemaSnapshot.Index], compiled: [String: SQLiteSchemaSnapshot.Index]
    ) -> (store: [String: SQLiteSchemaSnapshot.Index], compiled: [String: SQLiteSchemaSnapshot.Index]) {
        var store = store
        var compiled = compiled
        for (storeName, compiledName) in UniqueClauseIndexes.pairs(store: store, compiled: compiled) {
            store[storeName] = nil
            compiled[compiledName] = nil
        }
        return (store, compiled)
    }

    static func entityNumberDifferences(store connection: Connection, model: CheckedModel) throws -> [CoreDataStoreDifference] {
        var stored: [Int: (name: String, parent: Int64)] = [:]
        for row in try BookkeepingStatements.entities(on: connection) {
            stored[row.number] = (row.name, Int64(row.superNumber))
        }
        var differences: [CoreDataStoreDifference] = []
        var expected: [Int: (name: String, parent: Int64)] = [:]
        var formerNames: [Int: String] = [:]
        for entity in model.entities {
            expected[entity.number] = (entity.name, Int64(entity.superentityIndex.map { $0 + 1 } ?? 0))
            if let old = entity.renamingIdentifier, !old.isEmpty { formerNames[entity.number] = old }
        }
        func describe(_ row: (name: String, parent: Int64)?) -> String {
            guard let row else { return "missing" }
            return row.parent == 0 ? row.name : "\(row.name) (sub-entity of \(row.parent))"
        }
        for number in Set(stored.keys).union(expected.keys).sorted() {
            let inStore = stored[number], inModel = expected[number]
            let sameName = inStore?.name == inModel?.name || (inStore != nil && inStore?.name == formerNames[number])
            if !sameName || inStore?.parent != inModel?.parent {
                differences.append(.entityNumberDiffers(entityNumber: number, store: describe(inStore), model: describe(inModel)))
            }
        }
        return differences
    }

    private static func describe(_ column: SQLiteSchemaSnapshot.Column) -> String {
        column.declaredType + (column.primaryKeyPosition > 0 ? " PRIMARY KEY(\(column.primaryKeyPosition))" : "")
    }

    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }
}
