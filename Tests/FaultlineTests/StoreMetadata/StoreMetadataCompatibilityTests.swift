// isConfiguration(withName:compatibleWithStoreMetadata:): whether a store needs
// migrating, from its metadata and the model's entity hashes alone, as
// CoreDataPlus's migration tests ask Core Data.

import Foundation
import Testing
import FixtureSupport
@testable import Faultline

@Suite("Model compatibility with a store's metadata: Core Data's entity-hash rule")
struct StoreMetadataCompatibilityTests {
    @Test("Core Data's V1 store is compatible with the V1 model, not V2; its V2 store with V2, not V1")
    func coreDataStores() throws {
        let v1Store = try PersistentStoreCoordinator.metadataForPersistentStore(at: CoreDataFixtures.url(SampleModelFixture.v1Store))
        let v2Store = try PersistentStoreCoordinator.metadataForPersistentStore(at: CoreDataFixtures.url(SampleModelFixture.v2Store))
        let v1 = try SampleModelFixture.v1()
        let v2 = try SampleModelFixture.v2()
        #expect(v1.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: v1Store))
        #expect(!v2.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: v1Store))
        #expect(v2.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: v2Store))
        #expect(!v1.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: v2Store))
        // The same answers from the checked model a container holds, and from the
        // bundle version under Core Data's default configuration name.
        #expect(try v1.model.checked().isConfiguration(withName: nil, compatibleWithStoreMetadata: v1Store))
        #expect(v2.isConfiguration(withName: StoreMetadata.defaultConfigurationName, compatibleWithStoreMetadata: v2Store))
        #expect(!v2.isConfiguration(withName: "NoSuchConfiguration", compatibleWithStoreMetadata: v2Store))
    }

    @Test("A model built in code is compatible with the store Faultline made for it, not after an entity changes")
    func codeModel() throws {
        let directory = try CoreDataFixtures.temporaryDirectory(prefix: "faultline-compatibility")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Store.sqlite")
        _ = try PersistentContainer(model: ManagedObjectModel { Entity("Item") { Attribute("name", .string) } }, location: .file(url))
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(at: url)
        #expect(ManagedObjectModel { Entity("Item") { Attribute("name", .string) } }
            .isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(!ManagedObjectModel { Entity("Item") { Attribute("name", .string); Attribute("count", .integer64) } }
            .isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(!ManagedObjectModel { Entity("Item") { Attribute("name", .string) } }
            .isConfiguration(withName: "Cloud", compatibleWithStoreMetadata: metadata))
    }
}
