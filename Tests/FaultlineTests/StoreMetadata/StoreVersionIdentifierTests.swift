// NSStoreModelVersionIdentifiers: Core Data records the model's version
// identifiers (a model file's userDefinedModelVersionIdentifier) when it
// creates a store and again when it migrates one; alemar11/CoreDataPlus's V2
// fixture, which Core Data migrated from V1, says ["2"]. Faultline wrote [""]
// on creation and kept the old ["1"] through a migration. A model file without
// an identifier records [""], a model built in code [] (Core Data's stores).

import Foundation
import Testing
import FaultlineSQLite
import FixtureSupport
@testable import Faultline

@Suite("NSStoreModelVersionIdentifiers: stores record the identifiers of the model that created or migrated them")
struct StoreVersionIdentifierTests {
    @Test("A store created with a model file's version records its identifier, [\"\"] for a file without one, [] for a model built in code, as Core Data's stores say")
    func creation() throws {
        let directory = try CoreDataFixtures.temporaryDirectory(prefix: "faultline-identifiers")
        defer { try? FileManager.default.removeItem(at: directory) }
        let v1 = try SampleModelFixture.v1()
        #expect(v1.model.versionIdentifiers == ["1"])
        let fileStore = directory.appendingPathComponent("File.sqlite")
        _ = try PersistentContainer(model: v1.model, location: .file(fileStore))
        #expect(try PersistentStoreCoordinator.metadataForPersistentStore(at: fileStore).versionIdentifiers == ["1"])

        let coded = ManagedObjectModel { Entity("Item") { Attribute("name", .string) } }
        let codeStore = directory.appendingPathComponent("Code.sqlite")
        _ = try PersistentContainer(model: coded, location: .file(codeStore))
        #expect(try PersistentStoreCoordinator.metadataForPersistentStore(at: codeStore).versionIdentifiers == [])
        // Core Data's own: CoreDataPlus's SampleModel2 is built in code.
        #expect(try PersistentStoreCoordinator.metadataForPersistentStore(
            at: CoreDataFixtures.url("alemar11__CoreDataPlus/SampleModel2_V1.sqlite")).versionIdentifiers == [])

        // jeffreybergier's model file has no identifier; Core Data's store of it says [""].
        let folder = "jeffreybergier__CoreDataMigrationTests"
        let bundle = try ModelBundle.read(at: CoreDataFixtures.url("\(folder)/Model.xcdatamodeld"))
        let first = try #require(bundle.versions.first { $0.name == "v1.0.0" })
        #expect(first.model.versionIdentifiers == [""])
        let unnamedStore = directory.appendingPathComponent("Unnamed.sqlite")
        _ = try PersistentContainer(model: first.model, location: .file(unnamedStore))
        let coreData = try PersistentStoreCoordinator.metadataForPersistentStore(
            at: CoreDataFixtures.url("\(folder)/Example_v1.0.0.sqlite"))
        #expect(coreData.versionIdentifiers == [""])
        #expect(try PersistentStoreCoordinator.metadataForPersistentStore(at: unnamedStore).versionIdentifiers == coreData.versionIdentifiers)
    }

    @Test("Migrating Core Data's V1 store to V2 records [\"2\"], as Core Data's own migration of it did")
    func migration() throws {
        let copy = try StoreCopy(SampleModelFixture.v1Store)
        defer { copy.remove() }
        let before = try PersistentStoreCoordinator.metadataForPersistentStore(at: copy.url)
        #expect(before.versionIdentifiers == ["1"])
        let source = try ModelVersion(SampleModelFixture.v1().model, label: "V1")
        let target = try ModelVersion(SampleModelFixture.v2().model, label: "V2")
        #expect(try CoreDataStore.migrate(storeAt: copy.url, to: target, from: [source]) == .migrated(from: "V1"))

        let migrated = try PersistentStoreCoordinator.metadataForPersistentStore(at: copy.url)
        let coreData = try PersistentStoreCoordinator.metadataForPersistentStore(at: CoreDataFixtures.url(SampleModelFixture.v2Store))
        #expect(coreData.versionIdentifiers == ["2"])
        #expect(migrated.versionIdentifiers == coreData.versionIdentifiers)
        #expect(migrated.entityVersionHashes == coreData.entityVersionHashes)
        #expect(migrated.uuid == before.uuid)
    }
}
