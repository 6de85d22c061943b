import Foundation
import Testing

/// SQL text is written in few places: FaultlineSQLite, the schema compiler
/// (FaultlineSchema, its own target: tables, indexes, triggers), the query
/// compiler (Query/: predicates, key paths and sort keys) and the store's
/// plans, which turn the model-level requests of the object graph into
/// statements. Anywhere else a string literal holding SQL is a leak of the
/// store into a layer that should speak the model. The files that still have
/// some are listed with their reason; the list only shrinks.
@Suite("SQL is written only by the schema, the query compiler and the store's plans")
struct SQLPlacementTests {
    /// Folders of the core; the schema compiler is its own target now.
    static let sqlFolders: Set<String> = ["Query"]
    static let storePlans: Set<String> = [
        "Store/EntityStorePlan.swift", "Store/EntityWriteStatements.swift", "Store/EntityReadStatements.swift",
        "Store/CompiledFetch.swift",
    ]

    /// Files outside those places that still write SQL, and why.
    static let remaining: [String: String] = [
        "Batch/BatchDeleteRequest.swift": "batch requests build their statements in Batch/, not in store plans",
        "Batch/BatchInsertPlan.swift": "as BatchDeleteRequest",
        "Batch/BatchKeyBlocks.swift": "as BatchDeleteRequest",
        "Batch/BatchPredicateSQL.swift": "as BatchDeleteRequest",
        "Batch/BatchUpdateRequest.swift": "as BatchDeleteRequest",
        "CoreDataStore/CoreDataModelInference.swift": "reads Z_PRIMARYKEY and sqlite_master to infer a store's model",
        "CoreDataStore/CoreDataStore.swift": "reads Core Data's own tables when opening its store",
        "CoreDataStore/CoreDataStoreMatcher.swift": "reads sqlite_master to match a Core Data store",
        "CoreDataStore/CoreDataStoreMigration.swift": "reads sqlite_master and empties Z_MODELCACHE when migrating a Core Data store",
        "CoreDataStore/CoreDataTriggerFunctions.swift": "reads Core Data's trigger definitions",
        "CoreDataStore/CoreDataValueAdapter.swift": "reads the external-data file names a save replaces or deletes",
        "CoreDataStore/SQLiteSchemaSnapshot.swift": "reads sqlite_master to match a Core Data store",
        "Migration/DeferredCleanup.swift": "migration DDL: a migration plan type would hold it",
        "Migration/DerivedRecompute.swift": "as DeferredCleanup",
        "Migration/IndexMigration.swift": "as DeferredCleanup",
        "Migration/LightweightMigration.swift": "as DeferredCleanup",
        "Migration/MigrationPreflight.swift": "as DeferredCleanup: counts the rows a migration would refuse",
        "Migration/RelationshipTransfer.swift": "as DeferredCleanup",
        "Migration/SchemaVerification.swift": "as DeferredCleanup",
        "Migration/StoreMigrator.swift": "as DeferredCleanup",
        "Migration/TablePlan.swift": "as DeferredCleanup",
        "Store/PersistentStoreCoordinator.swift": "the open-time store check reads sqlite_master",
        "Store/PrimaryKeyAllocator.swift": "Z_PRIMARYKEY's statements",
        "Store/StoreBootstrap.swift": "creates a new store's bookkeeping rows",
    ]

    static let keywords = #"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|BEGIN|COMMIT|SAVEPOINT|WHERE|JOIN)\b"#

    @Test("No string literal outside those places holds SQL, except in the listed files")
    func sqlStaysInPlace() throws {
        let tree = try SourceTree()
        #expect(tree.files.count > 80, "the scan found the core's sources")
        var writing: Set<String> = []
        for file in tree.files where !Self.sqlFolders.contains(file.folder) && !Self.storePlans.contains(file.path) {
            if file.literals.contains(where: { !SourceTree.matches("(" + Self.keywords + ")", in: $0).isEmpty }) {
                writing.insert(file.path)
            }
        }
        #expect(writing.subtracting(Self.remaining.keys).sorted() == [], "SQL written in a new place")
        #expect(Set(Self.remaining.keys).subtracting(writing).sorted() == [], "no SQL left: remove them from the list")
    }

    @Test("The object graph, fetching and the predicate language write no SQL at all")
    func objectGraphSpeaksTheModel() throws {
        let tree = try SourceTree(), predicates = try SourceTree(target: "FaultlinePredicate")
        #expect(predicates.files.count > 10, "the scan found the predicate target's sources")
        for file in tree.files + predicates.files where ["Context", "Fetch", "FaultlinePredicate"].contains(file.folder) {
            let sql = file.literals.filter { !SourceTree.matches("(" + Self.keywords + ")", in: $0).isEmpty }
            #expect(sql == [], "\(file.path)")
        }
    }
}
