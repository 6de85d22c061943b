// Proves that, for the models of real stores Core Data (and SwiftData) wrote,
// the schema Faultline generates is the store's schema: table for table, column
// for column (name, declared type, primary-key position; order ignored), index
// for index (name, table, columns in order, UNIQUE, partial), trigger for
// trigger, and the same `Z_PRIMARYKEY` entity rows (Z_ENT, Z_NAME, Z_SUPER).
//
// Each fixture store is copied to a temporary directory and read with
// FaultlineSQLite; the model, rebuilt in code, is compiled and CREATED in a
// fresh database, read back the same way, and the two schemas are diffed.
// Every difference Faultline is known to have is listed per store, with its
// reason: the test fails when an unlisted difference appears AND when a listed
// one disappears (so the list stays true).

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// A difference the generated schema is known to have, and why.
struct ExpectedDifference: Sendable {
    let difference: SchemaDifference
    let reason: String

    init(_ difference: SchemaDifference, _ reason: String) {
        self.difference = difference
        self.reason = reason
    }
}

/// A fixture store, the model that wrote it, and what the comparison leaves out.
struct StoreFixture: Sendable, CustomTestStringConvertible {
    let name: String
    /// Path under `shared/coredata-stores`.
    let storePath: String
    let model: @Sendable () -> ManagedObjectModel
    /// Store tables left out of the comparison (with their indexes). Each must
    /// exist in the store, so an ignore can never silently cover nothing.
    var ignoredStoreTables: Set<String> = []
    /// `Z_PRIMARYKEY` rows left out of the comparison; at least one must exist.
    var ignoredEntityNumbers: ClosedRange<Int64>? = nil
    let expectedDifferences: [ExpectedDifference]

    var testDescription: String { name }
}

/// Faultline does not write Core Data's Z_MODELCACHE (a compressed keyed
/// archive of the model that wrote the store); every Core Data store since
/// about 2015 has one.
private let noModelCache = ExpectedDifference(
    .tableOnlyInStore("Z_MODELCACHE"),
    "Faultline writes no Z_MODELCACHE (Core Data's archived copy of the model); it identifies the model by Z_METADATA hashes")

@Suite("Generated schemas match the stores Core Data wrote")
struct FixtureSchemaTests {
    static let fixtures: [StoreFixture] = [
        StoreFixture(
            name: "Recipes (Apple sample, 2018)",
            storePath: "alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.sqlite",
            model: { RecipesFixtureModel.model() },
            expectedDifferences: [noModelCache]),
        StoreFixture(
            name: "Grocery Dude model 6 (2015)",
            storePath: "linjk__JimGroceryDude/JimGroceryDude/Model/DataModel/DefaultData.sqlite",
            model: { GroceryDudeFixtureModel.model() },
            expectedDifferences: [noModelCache]),
        StoreFixture(
            name: "EasyLife 1.5.0 (2018)",
            storePath: "larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite",
            model: { EasyLifeFixtureModel.model() },
            expectedDifferences: [noModelCache]),
        StoreFixture(
            name: "CartKit Core Data v1 (2026)",
            storePath: "Karim-ezzedine__CartKit/Tests/CartKitStorageCoreDataTests/LegacyCoreData/CartStorage_v1.sqlite",
            model: { CartKitFixtureModels.coreDataV1() },
            expectedDifferences: [noModelCache]),
        StoreFixture(
            name: "CartKit SwiftData v1 (2026)",
            storePath: "Karim-ezzedine__CartKit/Tests/CartKitStorageSwiftDataTests/LegacySwiftData/CartKitSwiftData_v1.sqlite",
            model: { CartKitFixtureModels.swiftDataV1() },
            // Persistent history (on in SwiftData stores) is not part of the
            // model: its tables and their Z_PRIMARYKEY rows 16001-16003
            // (CHANGE, TRANSACTION, TRANSACTIONSTRING) are left out.
            ignoredStoreTables: ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"],
            ignoredEntityNumbers: 16001...Int64.max,
            expectedDifferences: [noModelCache]),
    ]

    @Test("Tables, columns, indexes, triggers and Z_PRIMARYKEY rows are the store's", arguments: fixtures)
    func generatedSchemaMatchesStore(_ fixture: StoreFixture) throws {
        let differences = try Self.differences(
            storePath: fixture.storePath, model: fixture.model(),
            ignoringTables: fixture.ignoredStoreTables, entityNumbers: fixture.ignoredEntityNumbers)
        let expected = fixture.expectedDifferences.map(\.difference)
        #expect(Set(expected).count == expected.count, "an expected difference is listed twice")
        let unexpected = differences.filter { !expected.contains($0) }
        let vanished = fixture.expectedDifferences.filter { !differences.contains($0.difference) }
        #expect(unexpected.isEmpty, """
            \(fixture.name): the generated schema differs from the store:
            \(unexpected.map { "  - \($0)" }.joined(separator: "\n"))
            """)
        #expect(vanished.isEmpty, """
            \(fixture.name): listed differences no longer occur (remove them from the list):
            \(vanished.map { "  - \($0.difference) (\($0.reason))" }.joined(separator: "\n"))
            """)
    }

    /// The comparison must see a real mismatch: `EasyLife.sqlite` and
    /// `EasyLife 1.3.0.sqlite` were written by a model version that is not
    /// committed (no TodoItem.project, no blockedBy/blocking), so the 1.5.0
    /// model's schema differs from them by exactly the project key and the join table.
    @Test("A store written by another model version does not match",
          arguments: ["larromba__EasyLife/EasyLifeTests/EasyLife.sqlite",
                      "larromba__EasyLife/EasyLifeTests/EasyLife 1.3.0.sqlite"])
    func otherModelVersionDoesNotMatch(_ storePath: String) throws {
        let differences = try Self.differences(
            storePath: storePath, model: EasyLifeFixtureModel.model(), ignoringTables: [], entityNumbers: nil)
        let joinTable = FixtureIndex(
            name: "Z_2BLOCKING_Z_2BLOCKING_INDEX", table: "Z_2BLOCKING",
            columns: ["Z_2BLOCKING", "Z_2BLOCKEDBY"], isUnique: false, isPartial: false)
        let joinKey = FixtureIndex(
            name: "sqlite_autoindex_Z_2BLOCKING_1", table: "Z_2BLOCKING",
            columns: ["Z_2BLOCKEDBY", "Z_2BLOCKING"], isUnique: true, isPartial: false)
        let projectKey = FixtureIndex(
            name: "ZTODOITEM_ZPROJECT_INDEX", table: "ZTODOITEM", columns: ["ZPROJECT"], isUnique: false, isPartial: false)
        let expected: Set<SchemaDifference> = [
            noModelCache.difference,
            .columnOnlyGenerated(table: "ZTODOITEM",
                                 column: FixtureColumn(name: "ZPROJECT", declaredType: "INTEGER", primaryKeyPosition: 0)),
            .indexOnlyGenerated(projectKey),
            .tableOnlyGenerated("Z_2BLOCKING"),
            .indexOnlyGenerated(joinTable),
            .indexOnlyGenerated(joinKey),
        ]
        #expect(Set(differences) == expected, """
            differences found:
            \(differences.map { "  - \($0)" }.joined(separator: "\n"))
            """)
    }

    /// Copies the store at `storePath` (under `coredata-stores`), creates the
    /// schema of `model` in a new database beside it, and diffs the two; the
    /// copies are deleted afterwards.
    private static func differences(
        storePath: String, model: ManagedObjectModel,
        ignoringTables ignoredTables: Set<String>, entityNumbers ignoredNumbers: ClosedRange<Int64>?
    ) throws -> [SchemaDifference] {
        let directory = try FixtureLocator.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let copy = try FixtureLocator.copyStore(storePath, into: directory)
        let fullStore = try Self.readSchema(atPath: copy)
        #expect(fullStore.tables["Z_PRIMARYKEY"] != nil && !fullStore.entityRows.isEmpty,
                "\(storePath) does not look like a Core Data store")
        for table in ignoredTables.sorted() {
            #expect(fullStore.tables[table] != nil, "ignored table \(table) is not in the store: drop the ignore")
        }
        if let ignoredNumbers {
            #expect(fullStore.entityRows.contains { ignoredNumbers.contains($0.entityNumber) },
                    "no Z_PRIMARYKEY row in \(ignoredNumbers) to ignore: drop the ignore")
        }
        let store = fullStore.removing(tables: ignoredTables, entityNumbers: ignoredNumbers)

        let schema = try StoreSchema(compiling: model.checked())
        let generated = try Self.createAndReadSchema(schema, atPath: directory.appendingPathComponent("generated.sqlite").path)
        #expect(!generated.tables.isEmpty && !generated.entityRows.isEmpty, "the generated database is empty")
        return SchemaDifference.between(store: store, generated: generated)
    }

    /// Reads the schema of the database at `path` (a copy: opening may write).
    private static func readSchema(atPath path: String) throws -> FixtureSchema {
        let connection = try Connection(.file(path))
        return try SQLiteSchemaReader.read(connection)
    }

    /// Creates `schema` in a new database at `path` the way a store is created,
    /// and reads it back.
    private static func createAndReadSchema(_ schema: StoreSchema, atPath path: String) throws -> FixtureSchema {
        let connection = try Connection(.file(path))
        try StoreFunctions.register(on: connection)
        try StoreBootstrap.create(schema, on: connection)
        return try SQLiteSchemaReader.read(connection)
    }
}
