import Foundation
import Testing

/// SQL text is written in few places: FaultlineSQLite (statements and
/// SQLite's own schema catalog), the schema compiler (FaultlineSchema, its own
/// target: tables, indexes, triggers), the query compiler (Query/: predicates,
/// key paths and sort keys) and the statement builders below, each a type whose
/// one job is turning a model-level request or plan into statements. Anywhere
/// else a string literal holding SQL is a leak of the store into a layer that
/// should speak the model, and fails the test.
@Suite("SQL is written only by the schema, the query compiler and the store's plans")
struct SQLPlacementTests {
    /// Folders of the core; the schema compiler is its own target now.
    static let sqlFolders: Set<String> = ["Query"]
    /// The statement builders, and what each turns into SQL.
    static let statementBuilders: [String: String] = [
        "Store/EntityStorePlan.swift": "an entity's reads, inserts, updates and deletes, built once per store",
        "Store/EntityWriteStatements.swift": "an entity's write statements, one per set of changed columns",
        "Store/EntityReadStatements.swift": "to-many members and prefetches, and columns of one row by key",
        "Store/CompiledFetch.swift": "a fetch request over an entity's plan",
        "Store/BookkeepingStatements.swift": "Z_PRIMARYKEY, Z_METADATA and Z_MODELCACHE",
        "Store/HistoryStatements.swift": "Core Data's persistent-history tables: created, recorded into, read, deleted",
        "Batch/BatchInsertPlan.swift": "a batch insert's one statement",
        "Batch/BatchStatements.swift": "batch updates and deletes: selection, update, delete rules",
        "Migration/MigrationStatements.swift": "a lightweight migration's copies, in-place changes and checks",
        "Migration/DerivedRecomputeStatements.swift": "derived attributes recomputed over migrated rows",
        "Migration/HistoryMigrationStatements.swift": "persistent-history change rows carried to a new model",
    ]

    static let keywords = #"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|BEGIN|COMMIT|SAVEPOINT|WHERE|JOIN)\b"#

    @Test("No string literal outside those places holds SQL")
    func sqlStaysInPlace() throws {
        let tree = try SourceTree()
        #expect(tree.files.count > 80, "the scan found the core's sources")
        for file in tree.files where !Self.sqlFolders.contains(file.folder) && Self.statementBuilders[file.path] == nil {
            let sql = file.literals.filter { !SourceTree.matches("(" + Self.keywords + ")", in: $0).isEmpty }
            #expect(sql == [], "SQL written outside the statement builders: \(file.path)")
        }
    }

    @Test("Every listed statement builder exists and writes SQL, so the list cannot go stale")
    func buildersAreReal() throws {
        let tree = try SourceTree()
        for path in Self.statementBuilders.keys.sorted() {
            let file = tree.files.first { $0.path == path }
            #expect(file != nil, "\(path) is listed but missing")
            let writes = file?.literals.contains { !SourceTree.matches("(" + Self.keywords + ")", in: $0).isEmpty } ?? false
            #expect(writes, "\(path) is listed but writes no SQL")
        }
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
