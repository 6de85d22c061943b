// metadata() and setMetadata(_:) on a live store, Core Data's metadata(for:) and
// setMetadata(_:for:): an app's own keys, written at once in one write
// transaction (one UPDATE of Z_METADATA), kept across reopening, beside the
// keys Core Data and Faultline keep there, which they never replace.

import Foundation
import Testing
import FaultlineSQLite
import FixtureSupport
@testable import Faultline

@Suite("Live store metadata: an app's keys persist at once, Core Data's and Faultline's keys stay")
struct LiveStoreMetadataTests {
    static let update = "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1"

    @Test("A Faultline store: the app's keys are one UPDATE, read back after reopening; the same keys again write nothing")
    func faultlineStore() throws {
        let directory = try CoreDataFixtures.temporaryDirectory(prefix: "faultline-live-metadata")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Store.sqlite")
        let model = { ManagedObjectModel { Entity("Item") { Attribute("name", .string) } } }
        do {
            let container = try PersistentContainer(model: model(), location: .file(url))
            let original = try container.metadata()
            var metadata = original
            metadata.additional["SeedVersion"] = .integer(3)
            metadata.additional["ImportedAt"] = .date(Date(timeIntervalSinceReferenceDate: 800_000_000))
            // Faultline's own keys and the typed fields are the store's, whatever is passed.
            metadata.additional[StoreBootstrap.modelVersionHashKey] = .string("forged")
            metadata.entityVersionHashes = [:]
            container.coordinator.resetCounters()
            let (_, statements) = try StatementLog.record { try container.setMetadata(metadata) }
            // The log is process-wide (tests beside this one add theirs); the
            // coordinator's counter is this store's: BEGIN, the read, the update, COMMIT.
            #expect(statements.contains(Self.update), "\(statements)")
            #expect(container.coordinator.sqlCounters.statementsExecuted == 4)
            let written = try container.metadata()
            #expect(written.additional["SeedVersion"] == .integer(3))
            #expect(written.modelVersionHash == original.modelVersionHash)
            #expect(written.entityVersionHashes == original.entityVersionHashes)

            // Nothing to change: the read alone, no update.
            container.coordinator.resetCounters()
            try container.setMetadata(written)
            #expect(container.coordinator.sqlCounters.statementsExecuted == 3)
        }
        let reopened = try PersistentContainer(model: model(), location: .file(url))
        let metadata = try reopened.metadata()
        #expect(metadata.additional["SeedVersion"] == .integer(3))
        #expect(metadata.additional["ImportedAt"] == .date(Date(timeIntervalSinceReferenceDate: 800_000_000)))

        var removing = metadata
        removing.additional["SeedVersion"] = nil
        try reopened.setMetadata(removing)
        #expect(try PersistentStoreCoordinator.metadataForPersistentStore(at: url).additional["SeedVersion"] == nil)
        #expect(try PersistentStoreCoordinator.metadataForPersistentStore(at: url).additional["ImportedAt"] != nil)
    }

    @Test("Core Data's store: the app's key is added and every key Core Data wrote is kept; the store still opens as Core Data's")
    func coreDataStore() throws {
        let copy = try StoreCopy(SampleModelFixture.v1Store)
        defer { copy.remove() }
        let before = try PersistentStoreCoordinator.metadataForPersistentStore(at: copy.url)
        let v1 = try SampleModelFixture.v1()
        let options = CoreDataStoreOptions(coreDataEntityVersionHashes: v1.coreDataEntityVersionHashes)
        do {
            let container = try PersistentContainer(coreDataStoreAt: copy.url, model: v1.model, options: options)
            var metadata = try container.metadata()
            metadata.additional["CoreDataPlusKey"] = .string("value")
            try container.setMetadata(metadata)
        }
        var after = try PersistentStoreCoordinator.metadataForPersistentStore(at: copy.url)
        #expect(after.additional["CoreDataPlusKey"] == .string("value"))
        after.additional["CoreDataPlusKey"] = nil
        #expect(after == before)
        _ = try PersistentContainer(coreDataStoreAt: copy.url, model: SampleModelFixture.v1().model, options: options)
    }

    @Test("A store opened read-only refuses the write before it starts")
    func readOnly() throws {
        let copy = try StoreCopy(SampleModelFixture.v2Store)
        defer { copy.remove() }
        let v2 = try SampleModelFixture.v2()
        let container = try PersistentContainer(
            coreDataStoreAt: copy.url, model: v2.model,
            options: CoreDataStoreOptions(coreDataEntityVersionHashes: v2.coreDataEntityVersionHashes, readOnly: true))
        var metadata = try container.metadata()
        metadata.additional["Key"] = .boolean(true)
        #expect(throws: CoreDataStoreError.openedReadOnly(path: copy.url.path)) { try container.setMetadata(metadata) }
        #expect(try PersistentStoreCoordinator.metadataForPersistentStore(at: copy.url).additional["Key"] == nil)
    }
}
