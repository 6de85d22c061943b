// PersistentStoreCoordinator.metadataForPersistentStore(at:), Core Data's
// metadataForPersistentStore(ofType:at:options:): a store file's metadata read
// without a coordinator, from a store Core Data or Faultline wrote, leaving
// every file as it was; anything that is not a readable store is a typed error.

import Foundation
import Testing
import FaultlineSQLite
import FixtureSupport
@testable import Faultline

@Suite("Store metadata read from a file: Core Data's and Faultline's stores, untouched; typed errors otherwise")
struct StoreMetadataReadingTests {
    @Test("Core Data's V1 (with its -wal) and V2 stores read as Core Data wrote them; no file changes or appears")
    func coreDataStores() throws {
        for (store, identifier) in [(SampleModelFixture.v1Store, "1"), (SampleModelFixture.v2Store, "2")] {
            let copy = try StoreCopy(store)
            defer { copy.remove() }
            let files = SampleModelFixture.files(copy.url)
            let listing = try FileManager.default.contentsOfDirectory(atPath: copy.directory.path).sorted()
            let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: copy.url)
            #expect(metadata.uuid == "753753D3-A961-4901-AB05-8CC48B1D3853")
            #expect(metadata.versionIdentifiers == [identifier])
            #expect(metadata.storeType == "SQLite")
            #expect(metadata.frameworkVersion == 1044)
            #expect(metadata.entityVersionHashes.count == 4)
            #expect(SampleModelFixture.files(copy.url) == files)
            #expect(try FileManager.default.contentsOfDirectory(atPath: copy.directory.path).sorted() == listing)
        }
    }

    @Test("A Faultline store reads back what it was created with, Faultline's keys included, the file unchanged")
    func faultlineStore() throws {
        let directory = try CoreDataFixtures.temporaryDirectory(prefix: "faultline-metadata-read")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Store.sqlite")
        let model = ManagedObjectModel { Entity("Item") { Attribute("name", .string) } }
        let created = try PersistentContainer(model: model, location: .file(url)).coordinator
        let files = SampleModelFixture.files(url)
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: url)
        #expect(metadata.uuid == created.storeUUID)
        #expect(metadata.entityVersionHashes == created.model.entityVersionHashes)
        #expect(metadata.modelVersionHash == created.model.versionChecksum)
        #expect(SampleModelFixture.files(url) == files)
    }

    @Test("Missing file, directory, text file, SQLite without Z_METADATA, damaged Z_PLIST: typed errors, nothing created")
    func refusals() throws {
        let directory = try CoreDataFixtures.temporaryDirectory(prefix: "faultline-metadata-refusals")
        defer { try? FileManager.default.removeItem(at: directory) }
        func read(_ url: URL) -> StoreMetadataReadError? {
            do { _ = try PersistentStoreCoordinator.metadataForPersistentStore(at: url) } catch { return error }
            return nil
        }
        let missing = directory.appendingPathComponent("Missing.sqlite")
        #expect(read(missing) == .missingStore(path: missing.path))
        #expect(!FileManager.default.fileExists(atPath: missing.path))

        guard case .notAStore? = read(directory) else { Issue.record("a directory is not a store"); return }

        let text = directory.appendingPathComponent("Notes.txt")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: text)
        #expect(read(text) == .notAStore(path: text.path, reason: "not an SQLite database"))

        let foreign = directory.appendingPathComponent("Foreign.sqlite")
        try Self.run(["CREATE TABLE t (x)"], on: foreign)
        #expect(read(foreign) == .notAStore(path: foreign.path, reason: "it has no Z_METADATA table"))

        let damaged = directory.appendingPathComponent("Damaged.sqlite")
        try Self.run(["CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
                      "INSERT INTO Z_METADATA VALUES (1, 'X', X'62706C697374303020')"], on: damaged)
        guard case .corrupt? = read(damaged) else { Issue.record("a damaged Z_PLIST is corruption"); return }
        try Self.run(["DELETE FROM Z_METADATA"], on: damaged)
        guard case .corrupt? = read(damaged) else { Issue.record("a missing Z_METADATA row is corruption"); return }

        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(listing == ["Damaged.sqlite", "Foreign.sqlite", "Notes.txt"])
    }

    /// Runs `statements` on a connection closed before returning, which leaves no -wal.
    static func run(_ statements: [String], on url: URL) throws {
        let connection = try Connection(.file(url.path))
        for statement in statements { try connection.execute(statement) }
    }
}
