// Core Data of iOS 10 and before wrote a uniqueness constraint as a `UNIQUE (…)`
// clause of the table, backed by `sqlite_autoindex_<table>_1` (sql NULL); the
// opener takes it for the compiled `Z_<Entity>_UNIQUE_…` index. A lightweight
// migration must read it the same way: a kept table keeps its clause and gets
// no second index beside it (it failed: "index Z_…_UNIQUE_… is in the store but
// not in the model"); a changed or removed constraint rebuilds the table,
// since only a rebuild removes the clause.

import Foundation
import Testing
import FaultlineSQLite
import FixtureSupport
@testable import Faultline

@Suite("Lightweight migration of a store whose uniqueness constraint is a table UNIQUE clause")
struct UniqueClauseMigrationTests {
    typealias S = MigrationSupport

    /// Stands in for the Moody app's ColorsTransformer: the bytes as stored.
    struct PassThrough: AttributeValueTransformer {
        struct NotData: Error {}
        func encode(_ value: Any) throws -> Data {
            guard let data = value as? Data else { throw NotData() }
            return data
        }
        func decode(_ data: Data) throws -> Any { data }
    }

    static func indexes(_ connection: Connection, table: String) throws -> [[SQLValue]] {
        try connection.rows("SELECT name, sql FROM sqlite_master WHERE type = ? AND tbl_name = ? ORDER BY name",
                            [.text("index"), .text(table)])
    }

    static func tableSQL(_ connection: Connection, table: String) throws -> SQLValue? {
        try connection.scalar("SELECT sql FROM sqlite_master WHERE type = ? AND name = ?", [.text("table"), .text(table)])
    }

    static func matches(_ url: URL, _ version: ModelVersion) throws -> [CoreDataStoreDifference] {
        try CoreDataStoreMatcher.differences(
            store: Connection(.file(url.path), configuration: .inspecting(url.path)), model: version.model,
            schema: StoreSchema(compiling: version.model), coreDataEntityVersionHashes: nil)
    }

    // MARK: objc.io's Moody, version 1 → 2 (Mood renames remoteIdentifier, adds rating; GeographicRegion unchanged)

    static let moody = "objcio__core-data"

    static func moodyVersions() throws -> (v1: ModelVersion, v2: ModelVersion) {
        ValueTransformerRegistry.register(PassThrough(), forName: "ColorsTransformer")
        let bundle = try ModelBundle.read(at: CoreDataFixtures.url("\(moody)/Moody.xcdatamodeld"))
        let v1 = try ModelVersion(try #require(bundle.version(named: "Moody")).model, label: "Moody")
        let v2 = try ModelVersion(try #require(bundle.version(named: "Moody 2")).model, label: "Moody 2")
        return (v1, v2)
    }

    static let regionIndexes: [[SQLValue]] = [
        [.text("ZGEOGRAPHICREGION_ZCONTINENT_INDEX"),
         .text("CREATE INDEX ZGEOGRAPHICREGION_ZCONTINENT_INDEX ON ZGEOGRAPHICREGION (ZCONTINENT)")],
        [.text("ZGEOGRAPHICREGION_ZMARKEDFORDELETIONDATE_ZUPDATEDAT"),
         .text("CREATE INDEX ZGEOGRAPHICREGION_ZMARKEDFORDELETIONDATE_ZUPDATEDAT ON ZGEOGRAPHICREGION (ZMARKEDFORDELETIONDATE, ZUPDATEDAT)")],
        [.text("ZGEOGRAPHICREGION_Z_ENT_INDEX"),
         .text("CREATE INDEX ZGEOGRAPHICREGION_Z_ENT_INDEX ON ZGEOGRAPHICREGION (Z_ENT)")],
        [.text("sqlite_autoindex_ZGEOGRAPHICREGION_1"), .null],
    ]

    @Test("Moody → Moody 2: regions kept with their UNIQUE clause and no second index, Mood's renamed values moved, the store matches Moody 2")
    func moodyVersion1To2() throws {
        let copy = try StoreCopy("\(Self.moody)/Moody.moody")
        defer { copy.remove() }
        let (v1, v2) = try Self.moodyVersions()
        let before = try copy.connection()
        #expect(try Self.indexes(before, table: "ZGEOGRAPHICREGION") == Self.regionIndexes)
        let regions = try before.rows("SELECT * FROM ZGEOGRAPHICREGION ORDER BY Z_PK")
        let remoteIdentifiers = try before.rows("SELECT Z_PK, ZREMOTEIDENTIFIER FROM ZMOOD ORDER BY Z_PK")
        #expect(regions.count == 5 && remoteIdentifiers.count == 4)

        #expect(try CoreDataStore.migrate(storeAt: copy.url, to: v2, from: [v1]) == .migrated(from: "Moody"))

        let after = try copy.connection()
        #expect(try Self.indexes(after, table: "ZGEOGRAPHICREGION") == Self.regionIndexes)
        #expect(try after.rows("SELECT * FROM ZGEOGRAPHICREGION ORDER BY Z_PK") == regions)
        #expect(try after.rows("SELECT Z_PK, ZREMOTEID FROM ZMOOD ORDER BY Z_PK") == remoteIdentifiers)
        #expect(try after.rows("SELECT DISTINCT ZRATING FROM ZMOOD") == [[.integer(0)]])
        #expect(try Self.matches(copy.url, v2) == [])
        #expect(try Self.matches(copy.url, v1) != [])
        let coordinator = try PersistentStoreCoordinator.openCoreDataStore(model: v2.model, url: copy.url)
        let context = PersistentContainer(coordinator: coordinator).newBackgroundContext()
        #expect(try context.performAndWait { try context.count(for: FetchRequest(entityName: "GeographicRegion")) } == 5)
    }

    @Test("Moody → Moody 2 through a staged migration and as a dry run on a copy")
    func moodyStagedAndPlanned() throws {
        let copy = try StoreCopy("\(Self.moody)/Moody.moody")
        defer { copy.remove() }
        let (v1, v2) = try Self.moodyVersions()
        let plan = try CoreDataStore.planMigration(storeAt: copy.url, to: v2, from: [v1], triesOnCopy: true)
        #expect(plan.source == "Moody" && plan.trialFailure == nil)
        let outcome = try CoreDataStore.migrate(storeAt: copy.url, to: v2, using: StagedMigrationManager([.lightweight([v1, v2])]))
        #expect(outcome == .migrated(from: "Moody"))
        #expect(try Self.indexes(copy.connection(), table: "ZGEOGRAPHICREGION") == Self.regionIndexes)
        #expect(try Self.matches(copy.url, v2) == [])
    }

    // MARK: A synthetic store in the iOS 9/10 layout

    static func regionV1() -> ManagedObjectModel {
        S.model {
            Entity("Region") {
                Attribute("code", .integer64)
                Attribute("dummy", .integer64)
                Unique("code", "dummy")
            }
        }
    }

    static let legacyTable =
        "CREATE TABLE ZREGION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCODE INTEGER, ZDUMMY INTEGER, "
        + "CONSTRAINT ZCODE_ZDUMMY UNIQUE (ZCODE, ZDUMMY))"

    /// A store with two regions, (1, 0) and (2, 0), whose constraint is the
    /// table's UNIQUE clause as iOS 9 Core Data wrote it, and whose metadata
    /// carries none of Faultline's own keys.
    static func legacyStore() throws -> URL {
        let url = S.temporaryStore()
        try S.populate(url, regionV1()) { context in
            for code in [1, 2] {
                let region = try context.insertNewObject(forEntityName: "Region")
                try region.setValue(Int64(code), forKey: "code")
                try region.setValue(Int64(0), forKey: "dummy")
            }
        }
        let connection = try Connection(.file(url.path))
        try connection.execute("ALTER TABLE ZREGION RENAME TO ZREGION_FAULTLINE")
        try connection.execute(legacyTable)
        try connection.execute("INSERT INTO ZREGION SELECT Z_PK, Z_ENT, Z_OPT, ZCODE, ZDUMMY FROM ZREGION_FAULTLINE")
        try connection.execute("DROP TABLE ZREGION_FAULTLINE")
        var metadata = try StoreBootstrap.metadata(on: connection)
        metadata.additional[SchemaRecord.metadataKey] = nil
        metadata.additional[StoreBootstrap.modelVersionHashKey] = nil
        try metadata.write(on: connection)
        #expect(try indexes(connection, table: "ZREGION") == [[.text("sqlite_autoindex_ZREGION_1"), .null]])
        #expect(try tableSQL(connection, table: "ZREGION") == .text(legacyTable))
        return url
    }

    static func insertRegion(_ connection: Connection, key: Int64, code: Int64, dummy: Int64) throws {
        try connection.execute("INSERT INTO ZREGION (Z_PK, Z_ENT, Z_OPT, ZCODE, ZDUMMY) VALUES (?, 1, 1, ?, ?)",
                               [.integer(key), .integer(code), .integer(dummy)])
    }

    static func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? SQLiteError)?.extendedCode == 2067
    }

    @Test("An added attribute keeps the table and its UNIQUE clause, which still refuses a duplicate; no index is added")
    func addedAttributeKeepsClause() throws {
        let url = try Self.legacyStore()
        defer { S.remove(url) }
        let v1 = try ModelVersion(Self.regionV1(), label: "v1")
        let v2 = try ModelVersion(S.model {
            Entity("Region") {
                Attribute("code", .integer64)
                Attribute("dummy", .integer64)
                Attribute("name", .string)
                Unique("code", "dummy")
            }
        }, label: "v2")
        #expect(try Self.matches(url, v1) == [])

        #expect(try CoreDataStore.migrate(storeAt: url, to: v2, from: [v1]) == .migrated(from: "v1"))

        let connection = try Connection(.file(url.path))
        #expect(try Self.indexes(connection, table: "ZREGION") == [[.text("sqlite_autoindex_ZREGION_1"), .null]])
        // Kept in place: ADD COLUMN writes the new column before the table's constraints.
        let table = try Self.tableSQL(connection, table: "ZREGION")
        #expect(table == .text(
            "CREATE TABLE ZREGION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCODE INTEGER, ZDUMMY INTEGER, ZNAME VARCHAR, "
            + "CONSTRAINT ZCODE_ZDUMMY UNIQUE (ZCODE, ZDUMMY))"))
        #expect(try connection.rows("SELECT Z_PK, ZCODE, ZDUMMY, ZNAME FROM ZREGION ORDER BY Z_PK")
                == [[.integer(1), .integer(1), .integer(0), .null], [.integer(2), .integer(2), .integer(0), .null]])
        #expect(try Self.matches(url, v2) == [])
        #expect { try Self.insertRegion(connection, key: 9, code: 1, dummy: 0) } throws: { Self.isUniqueViolation($0) }
        try Self.insertRegion(connection, key: 9, code: 1, dummy: 1)
    }

    @Test("A changed constraint rebuilds the table: no UNIQUE clause, the new Z_…_UNIQUE_… index alone, enforcing the new columns")
    func changedConstraintRebuilds() throws {
        let url = try Self.legacyStore()
        defer { S.remove(url) }
        let v1 = try ModelVersion(Self.regionV1(), label: "v1")
        let v2 = try ModelVersion(S.model {
            Entity("Region") {
                Attribute("code", .integer64)
                Attribute("dummy", .integer64)
                Unique("code")
            }
        }, label: "v2")

        #expect(try CoreDataStore.migrate(storeAt: url, to: v2, from: [v1]) == .migrated(from: "v1"))

        let connection = try Connection(.file(url.path))
        let compiled = try StoreSchema(compiling: v2.model)
        #expect(try Self.indexes(connection, table: "ZREGION")
                == compiled.indexes.map { [.text($0.name), .text($0.createStatement)] })
        let indexes = try Self.indexes(connection, table: "ZREGION")
        #expect(indexes
                == [[.text("Z_Region_UNIQUE_code"), .text("CREATE UNIQUE INDEX Z_Region_UNIQUE_code ON ZREGION (ZCODE COLLATE BINARY ASC)")]])
        #expect(try Self.tableSQL(connection, table: "ZREGION") == compiled.tables.first.map { .text($0.createStatement) })
        #expect(try connection.rows("SELECT Z_PK, ZCODE, ZDUMMY FROM ZREGION ORDER BY Z_PK")
                == [[.integer(1), .integer(1), .integer(0)], [.integer(2), .integer(2), .integer(0)]])
        #expect(try Self.matches(url, v2) == [])
        #expect { try Self.insertRegion(connection, key: 9, code: 1, dummy: 1) } throws: { Self.isUniqueViolation($0) }
    }

    @Test("A removed constraint rebuilds the table without its UNIQUE clause: duplicates are allowed, no index is left")
    func removedConstraintRebuilds() throws {
        let url = try Self.legacyStore()
        defer { S.remove(url) }
        let v1 = try ModelVersion(Self.regionV1(), label: "v1")
        let v2 = try ModelVersion(S.model {
            Entity("Region") {
                Attribute("code", .integer64)
                Attribute("dummy", .integer64)
            }
        }, label: "v2")

        #expect(try CoreDataStore.migrate(storeAt: url, to: v2, from: [v1]) == .migrated(from: "v1"))

        let connection = try Connection(.file(url.path))
        #expect(try Self.indexes(connection, table: "ZREGION") == [])
        #expect(try Self.tableSQL(connection, table: "ZREGION") == .text(
            try #require(StoreSchema(compiling: v2.model).tables.first).createStatement))
        #expect(try Self.matches(url, v2) == [])
        try Self.insertRegion(connection, key: 9, code: 1, dummy: 0)
        #expect(try connection.scalar("SELECT count(*) FROM ZREGION WHERE ZCODE = ?", [.integer(1)]) == .integer(2))
    }
}
