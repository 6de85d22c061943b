// Migrating a store Core Data wrote that has derived attributes and records
// persistent history: CoreDataPlus's SampleModel2 V1 store (iOS 17), migrated
// with Faultline from the model in its own cache to the model cached in the
// V2 store Core Data wrote after its own migration (`cover` renamed
// `frontCover`, `Writer.siteURL` removed). The result is compared with what
// Core Data wrote: the same tables, indexes and `Z_DA_…` triggers, statement
// for statement; the store's history carried to the new model; the count the
// triggers keep still kept by them.

import Foundation
import Testing
import FaultlineSQLite
import FixtureSupport
@testable import Faultline

@Suite("CoreDataStore: migrating a Core Data store with derived attributes and persistent history")
struct CoreDataDerivedHistoryMigrationTests {
    static let folder = "alemar11__CoreDataPlus"

    /// The model a store caches, with stand-ins for transformers Linux lacks.
    static func cachedVersion(_ store: String, label: String) throws -> ModelVersion {
        let cached = try CompiledModelReader.model(fromModelCacheOf: URL(fileURLWithPath: try CoreDataFixtures.path("\(folder)/\(store)")))
        ValueTransformerRegistry.registerMissing(in: cached.model, standIn: UnavailableTransformer())
        return try ModelVersion(cached.model, label: label)
    }

    /// `sqlite_master`, a table's columns as a sorted list: Core Data puts a
    /// sub-entity's integer attribute after the root's keys, Faultline
    /// before them (README: differences). Columns are read by name, so the
    /// order matters to neither.
    static func schema(_ connection: Connection) throws -> [[SQLValue]] {
        try connection.rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").map { row in
            guard row[0] == .text("table"), case .text(let sql) = row[3],
                  let open = sql.firstIndex(of: "("), let close = sql.lastIndex(of: ")") else { return row }
            let columns = sql[sql.index(after: open)..<close].split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
            return Array(row.prefix(3)) + [.text(sql[..<open] + "(" + columns.joined(separator: ", ") + ")")]
        }
    }

    @Test("V1 → V2: schema and triggers exactly Core Data's V2 store's, rows and history carried, the count still kept")
    func sampleModel2() throws {
        let copy = try StoreCopy("\(Self.folder)/SampleModel2_V1.sqlite")
        defer { copy.remove() }
        let v1 = try Self.cachedVersion("SampleModel2_V1.sqlite", label: "V1")
        let v2 = try Self.cachedVersion("SampleModel2_V2.sqlite", label: "V2")
        let coreDataV2Path = try CoreDataFixtures.path("\(Self.folder)/SampleModel2_V2.sqlite")
        let coreDataV2 = try Connection(.file(coreDataV2Path), configuration: .inspecting(coreDataV2Path))

        let raw = try copy.connection()
        let covers = try raw.rows("SELECT Z_PK, ZCOVER FROM ZBOOK ORDER BY Z_PK")
        let changes = try raw.rows("SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID FROM ACHANGE ORDER BY Z_PK")
        #expect(changes.count == 5468)

        #expect(try CoreDataStore.migrate(storeAt: copy.url, to: v2, from: [v1]) == .migrated(from: "V1"))

        // What Core Data's own migration wrote, statement for statement, triggers included.
        #expect(try Self.schema(raw) == Self.schema(coreDataV2))
        #expect(try raw.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'Z_DA_%'") == .integer(5))
        #expect(try StoreBootstrap.metadata(on: raw).entityVersionHashes
            == StoreBootstrap.metadata(on: coreDataV2).entityVersionHashes)
        #expect(try raw.rows("SELECT Z_PK, ZFRONTCOVER FROM ZBOOK ORDER BY Z_PK") == covers)
        // Every change row kept (no entity went away; none changed number).
        #expect(try raw.rows("SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID FROM ACHANGE ORDER BY Z_PK") == changes)
        #expect(try raw.scalar("PRAGMA integrity_check") == .text("ok"))

        // Opened as V2, its history reads whole and the count triggers still count.
        let coordinator = try PersistentStoreCoordinator.openCoreDataStore(
            model: v2.model, url: copy.url, options: CoreDataStoreOptions(persistentHistoryTracking: true))
        let history = try coordinator.execute(.fetchHistory(after: nil as PersistentHistoryToken?))
        #expect(history.transactions.map(\.changes.count) == [5468])
        #expect(history.transactions.allSatisfy { $0.unreadableChangeCount == 0 })
        let container = PersistentContainer(coordinator: coordinator)
        let context = container.newBackgroundContext()
        let counted = try raw.rows("""
            SELECT b.Z_PK, b.ZPAGESCOUNT, (SELECT count(*) FROM ZPAGE p WHERE p.ZBOOK = b.Z_PK) FROM ZBOOK b \
            ORDER BY b.Z_PK LIMIT 1
            """)
        let book = try #require(counted.first)
        #expect(book[1] == book[2])
        guard case .integer(let bookKey) = book[0], case .integer(let pages) = book[1] else {
            Issue.record("no book row to count")
            return
        }
        try context.performAndWait {
            let owner = try #require(try context.fetch(FetchRequest(entityName: "Book")).first { $0.objectID.primaryKey == bookKey })
            let page = try context.insertNewObject(forEntityName: "Page")
            try SaveFiller.fill(page, in: context, model: v2.model, depth: 0)
            try page.setValue(owner, forKey: "book")
            try context.save()
        }
        #expect(try raw.scalar("SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = ?", [.integer(bookKey)]) == .integer(pages + 1))
    }
}
