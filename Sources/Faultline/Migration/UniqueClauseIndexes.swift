import Foundation
import FaultlineSQLite

/// Core Data of macOS 10.13 / iOS 10 and before declared a uniqueness
/// constraint as a `UNIQUE (…)` clause of the table, which SQLite backs with
/// `sqlite_autoindex_<table>_<n>`; later ones create `Z_<Entity>_UNIQUE_…`.
/// Either is the same constraint (Apple's knowledgeC 10.13 store, Moody).
///
/// One rule for the opener (`CoreDataStoreMatcher`) and the migration
/// (`MigrationRun`, `IndexMigration`), so a migrated store matches its model
/// exactly as an opened one does: a store's autoindex stands for the compiled
/// unique, non-partial index on the same table and columns, each used once.
enum UniqueClauseIndexes {
    /// The store's autoindexes paired with the compiled indexes they stand
    /// for, store name → compiled name (both as the snapshots key them).
    static func pairs(
        store: [String: SQLiteSchemaSnapshot.Index], compiled: [String: SQLiteSchemaSnapshot.Index]
    ) -> [String: String] {
        var candidates = compiled
        var result: [String: String] = [:]
        for (name, index) in store.sorted(by: { $0.key < $1.key }) where isAutoindex(index) {
            guard let match = candidates.sorted(by: { $0.key < $1.key }).first(where: {
                $0.value.isUnique && !$0.value.isPartial && $0.value.table == index.table && $0.value.columns == index.columns
            }) else { continue }
            result[name] = match.key
            candidates[match.key] = nil
        }
        return result
    }

    /// An index SQLite made for a table's `UNIQUE` or composite `PRIMARY KEY`
    /// clause. Its `sqlite_master.sql` is NULL and `DROP INDEX` refuses it:
    /// only rebuilding the table without the clause removes it.
    static func isAutoindex(_ index: SQLiteSchemaSnapshot.Index) -> Bool {
        index.isUnique && index.name.uppercased().hasPrefix("SQLITE_AUTOINDEX_")
    }

    /// The indexes `schema` creates, as SQLite reports them: read back from
    /// an in-memory database made with its statements.
    static func compiled(_ schema: StoreSchema) throws -> SQLiteSchemaSnapshot {
        let scratch = try Connection(.inMemory)
        try StoreFunctions.register(on: scratch)
        for statement in schema.creationStatements { try scratch.execute(statement) }
        return try SQLiteSchemaSnapshot.read(scratch)
    }

    /// Whether the store has any autoindex at all: the common case (no
    /// `UNIQUE` clause, no join table with a composite key) skips compiling.
    /// Asked once per migration, before its tables change: a store without
    /// one has none after it but those of new join tables, which stand for
    /// nothing.
    static func storeHasAutoindexes(_ connection: Connection) throws -> Bool {
        try !connection.autoindexNames().isEmpty
    }

    /// The store's autoindexes on `schema`'s tables and the compiled indexes
    /// they stand for (compiled name → store name): what a migration must
    /// neither create again nor expect to drop.
    static func standIns(in connection: Connection, schema: StoreSchema) throws -> [String: String] {
        let (store, compiled) = try snapshots(connection, schema: schema)
        return Dictionary(pairs(store: store, compiled: compiled.indexes).map { ($0.value, $0.key) },
                          uniquingKeysWith: { first, _ in first })
    }

    /// Tables of both the store and `schema` holding an autoindex that stands
    /// for nothing `schema` creates: a uniqueness constraint the new model
    /// changed or removed, still declared by the table's `UNIQUE` clause. A
    /// migration must rebuild them — keeping one in place would enforce the
    /// old constraint and leave an index the matcher reports as the store's
    /// only. The rebuilt table is the new model's, without the clause, and
    /// its constraint (if any) the compiled `Z_<Entity>_UNIQUE_…` index, as
    /// Core Data of iOS 11 and later writes it.
    static func tablesToRebuild(in connection: Connection, schema: StoreSchema) throws -> Set<String> {
        let (store, compiled) = try snapshots(connection, schema: schema)
        let paired = Set(pairs(store: store, compiled: compiled.indexes).keys)
        var result = Set<String>()
        for (name, index) in store where isAutoindex(index) && !paired.contains(name) && compiled.indexes[name] != index {
            // A join table's composite key is compiled too, under the same name.
            if compiled.tables[index.table] != nil { result.insert(index.table) }
        }
        return result
    }

    /// The store's indexes on `schema`'s tables, and the compiled schema.
    private static func snapshots(_ connection: Connection, schema: StoreSchema)
        throws -> (store: [String: SQLiteSchemaSnapshot.Index], compiled: SQLiteSchemaSnapshot)
    {
        let compiled = try compiled(schema)
        let store = try SQLiteSchemaSnapshot.read(connection).indexes.filter { compiled.tables[$0.value.table] != nil }
        return (store, compiled)
    }
}
