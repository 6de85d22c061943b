// Models read from a compiled `.momd` (or a store's model cache) carry Core
// Data's own entity version hashes, so a store Faultline creates from them
// holds in Z_METADATA exactly what Core Data would write and opens in Core
// Data as its own. Models built in code keep Faultline's hashes; an edit after
// adopting falls back to Faultline's hash for the edited entity.

import Foundation
import Testing
import FaultlineSQLite
import FixtureSupport
@testable import Faultline

@Suite("Core Data's entity version hashes adopted from compiled models")
struct CoreDataHashAdoptionTests {
    private static let cartKitMOMD = "Karim-ezzedine__CartKit/Sources/CartKitStorageCoreData/Resources/CartStorage.momd"

    /// `NSManagedObjectModel_VersionHashes` of a `.momd`, read here with Foundation.
    private func versionInfoHashes(_ momd: URL, version: String) throws -> [String: Data] {
        let data = try Data(contentsOf: momd.appendingPathComponent("VersionInfo.plist"))
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any]
        let all = try #require(plist?["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
        return try #require(all[version])
    }

    @Test("A store created from the CartKit .momd carries exactly the hashes and checksum of its VersionInfo.plist")
    func cartKitStoreCarriesCoreDataHashes() throws {
        let momd = try CoreDataFixtures.url(Self.cartKitMOMD)
        let expected = try versionInfoHashes(momd, version: "CartStorage")
        let version = try #require(try ModelBundle.read(at: momd).current)
        let directory = try CoreDataFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Cart.sqlite")

        let container = try PersistentContainer(model: version.model, location: .file(url))
        #expect(container.model.entityVersionHashes == expected)
        let metadata = try StoreBootstrap.metadata(on: Connection(.file(url.path)))
        #expect(metadata.entityVersionHashes == expected)
        #expect(metadata.checksum == StoreMetadata.checksum(of: expected))
        // Core Data's checksum recipe over its own hashes is the .momd's checksum.
        #expect(metadata.checksum == version.coreDataVersionChecksum)

        // Saved into and reopened by the same model, the store is its own.
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let cart = try context.insertNewObject(forEntityName: "CDCart")
            try SaveFiller.fill(cart, in: context, model: container.model, depth: 0)
            try context.save()
        }
        let again = try #require(try ModelBundle.read(at: momd).current)
        let reader = try PersistentContainer(model: again.model, location: .file(url)).newBackgroundContext()
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest(entityName: "CDCart")) } == 1)
    }

    @Test("A store written with Faultline's hashes before the model adopted Core Data's still opens with it; another model's does not")
    func storeFromBeforeAdoptionOpens() throws {
        func model() -> ManagedObjectModel {
            ManagedObjectModel { Entity("Item") { Attribute("name", .stringAttributeType) } }
        }
        let directory = try CoreDataFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Items.sqlite")
        _ = try PersistentContainer(model: model(), location: .file(url))

        let adopted = model()
        adopted.adoptCoreDataEntityVersionHashes(["Item": Data(repeating: 7, count: 32)])
        let reopened = try PersistentContainer(model: adopted, location: .file(url))
        #expect(reopened.model.faultlineVersionHash == (try model().checked().versionHash))
        #expect(reopened.model.versionHash != reopened.model.faultlineVersionHash)

        let other = ManagedObjectModel { Entity("Item") { Attribute("title", .stringAttributeType) } }
        other.adoptCoreDataEntityVersionHashes(["Item": Data(repeating: 7, count: 32)])
        #expect(throws: StoreError.self) { try PersistentContainer(model: other, location: .file(url)) }
    }

    @Test("A store's model cache carries the store's own hashes")
    func modelCacheCarriesStoreHashes() throws {
        let store = try CoreDataFixtures.url(CoreDataStoreFixture.easyLifeStore)
        let cached = try CompiledModelReader.model(fromModelCacheOf: store)
        let metadata = try StoreBootstrap.metadata(on: Connection(.file(store.path), configuration: .inspecting(store.path)))
        #expect(cached.coreDataEntityVersionHashes == metadata.entityVersionHashes)
        #expect(try cached.model.checked().entityVersionHashes == metadata.entityVersionHashes)
    }

    @Test("Adopted hashes replace Faultline's; an entity edited afterwards, or not named, keeps Faultline's")
    func adoptionHoldsWhileUnchanged() throws {
        func model() -> ManagedObjectModel {
            ManagedObjectModel {
                Entity("Item") { Attribute("name", .stringAttributeType) }
                Entity("Tag") { Attribute("label", .stringAttributeType) }
            }
        }
        let own = model().entityVersionHashes
        let coreData = ["Item": Data(repeating: 0xA1, count: 32)]

        let adopted = model()
        adopted.adoptCoreDataEntityVersionHashes(coreData)
        #expect(adopted.coreDataEntityVersionHashes == coreData)
        let checked = try adopted.checked()
        #expect(checked.entityVersionHashes == ["Item": coreData["Item"]!, "Tag": own["Tag"]!])
        #expect(checked.versionHash == adopted.versionHash)

        let edited = model()
        edited.adoptCoreDataEntityVersionHashes(coreData)
        let extra = AttributeDescription()
        extra.name = "added"
        extra.attributeType = .integer64AttributeType
        edited.entitiesByName["Item"]?.properties.append(extra)
        #expect(edited.coreDataEntityVersionHashes.isEmpty)
        #expect(try edited.checked().entityVersionHashes["Item"] != coreData["Item"])
    }
}
