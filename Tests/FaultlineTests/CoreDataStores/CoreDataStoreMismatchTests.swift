// A store that does not match the model fails to open with an error naming
// what differs, and nothing is written to it.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("CoreDataStore: mismatched stores fail, naming what differs")
struct CoreDataStoreMismatchTests {
    /// Bytes of the store file and its -wal, to prove nothing was written.
    private func contents(_ copy: StoreCopy) -> [Data?] {
        ["", "-wal"].map { try? Data(contentsOf: URL(fileURLWithPath: copy.url.path + $0)) }
    }

    @Test("EasyLife.sqlite and EasyLife 1.3.0.sqlite do not match the EasyLife 1.5.0 model",
          arguments: ["larromba__EasyLife/EasyLifeTests/EasyLife.sqlite",
                      "larromba__EasyLife/EasyLifeTests/EasyLife 1.3.0.sqlite"])
    func olderEasyLifeStoresFail(_ storePath: String) throws {
        let copy = try StoreCopy(storePath)
        defer { copy.remove() }
        let before = contents(copy)
        let error = #expect(throws: CoreDataStoreError.self) {
            try PersistentContainer(coreDataStoreAt: copy.url, model: EasyLifeFixtureModel.model())
        }
        guard case .modelMismatch(_, let differences)? = error else {
            Issue.record("expected modelMismatch, got \(String(describing: error))")
            return
        }
        #expect(differences.contains(.columnOnlyInModel(
            table: "ZTODOITEM", column: "ZPROJECT", declaredType: "INTEGER", entities: ["TodoItem"])))
        #expect(differences.contains(.tableOnlyInModel(
            table: "Z_2BLOCKING", entities: ["TodoItem.blockedBy", "TodoItem.blocking"])))
        #expect(differences.contains { if case .indexOnlyInModel(_, "ZTODOITEM_ZPROJECT_INDEX", _) = $0 { true } else { false } })
        let message = String(describing: error)
        #expect(message.contains("ZTODOITEM.ZPROJECT") && message.contains("TodoItem") && message.contains("Z_2BLOCKING"))
        #expect(contents(copy) == before, "opening a mismatched store wrote to it")
        // The same store against the model file's 1.5.0 version fails the same way.
        let fileModel = try CoreDataStoreFixture.modelFile(.easyLife, version: "EasyLife 1.5.0")
        #expect(throws: CoreDataStoreError.self) { try PersistentContainer(coreDataStoreAt: copy.url, model: fileModel) }
    }

    @Test("Core Data's compiled hashes (.momd) that are not the store's fail, naming each entity's hashes")
    func compiledHashesMismatch() throws {
        // CartKit's .momd describes the CURRENT model, newer than the v1 store.
        let root = try FixtureLocator.storesDirectory()
            .appendingPathComponent("Karim-ezzedine__CartKit/Sources/CartKitStorageCoreData/Resources")
        let bundle = try ModelFileReader().read(
            at: root.appendingPathComponent("CartStorage.xcdatamodeld"),
            compiledModel: root.appendingPathComponent("CartStorage.momd"))
        let hashes = try #require(bundle.current?.coreDataEntityVersionHashes)
        let copy = try StoreCopy(CoreDataStoreFixture.cartKitStore)
        defer { copy.remove() }
        let error = #expect(throws: CoreDataStoreError.self) {
            try PersistentContainer(coreDataStoreAt: copy.url, model: CartKitFixtureModels.coreDataV1(),
                                    options: CoreDataStoreOptions(coreDataEntityVersionHashes: hashes))
        }
        guard case .modelMismatch(_, let differences)? = error else {
            Issue.record("expected modelMismatch, got \(String(describing: error))")
            return
        }
        #expect(differences.contains { if case .hashDiffers(entity: "CDCart", _, _) = $0 { true } else { false } })
        // The current model file against the v1 store: also a schema mismatch (its new columns).
        let current = try #require(bundle.current?.model)
        let schemaError = #expect(throws: CoreDataStoreError.self) {
            try PersistentContainer(coreDataStoreAt: copy.url, model: current)
        }
        #expect(String(describing: schemaError).contains("ZCDCART."))
    }

    @Test("Hashes equal to the store's open it (the hash path)")
    func matchingHashesOpen() throws {
        let copy = try StoreCopy(CoreDataStoreFixture.recipesStore)
        defer { copy.remove() }
        let hashes = try StoreBootstrap.metadata(on: copy.connection()).entityVersionHashes
        let container = try PersistentContainer(
            coreDataStoreAt: copy.url, model: RecipesFixtureModel.model(),
            options: CoreDataStoreOptions(coreDataEntityVersionHashes: hashes))
        let context = container.newBackgroundContext()
        #expect(try context.performAndWait { try context.count(for: FetchRequest(entityName: "Recipe")) } == 3)
        var wrong = hashes
        wrong["Recipe"] = Data(repeating: 0, count: 32)
        let error = #expect(throws: CoreDataStoreError.self) {
            try PersistentContainer(coreDataStoreAt: copy.url, model: RecipesFixtureModel.model(),
                                    options: CoreDataStoreOptions(coreDataEntityVersionHashes: wrong))
        }
        #expect(String(describing: error).contains("entity Recipe: store hash"))
    }

    @Test("A different entity numbering is refused, naming the entity numbers")
    func entityNumberingDiffers() throws {
        let copy = try StoreCopy(CoreDataStoreFixture.easyLifeStore)
        defer { copy.remove() }
        let connection = try copy.connection()
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_NAME = 'Task' WHERE Z_ENT = 2")
        let error = #expect(throws: CoreDataStoreError.self) {
            try PersistentContainer(coreDataStoreAt: copy.url, model: EasyLifeFixtureModel.model())
        }
        #expect(String(describing: error).contains("Z_PRIMARYKEY entity 2 is Task in the store but TodoItem in the model"))
    }

    @Test("Not a Core Data store, or no file: a clear error, and no file is created")
    func notAStore() throws {
        let directory = try FixtureLocator.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("Nothing.sqlite")
        #expect(throws: CoreDataStoreError.missingStore(path: missing.path)) {
            try PersistentContainer(coreDataStoreAt: missing, model: EasyLifeFixtureModel.model())
        }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
        let plain = directory.appendingPathComponent("Plain.sqlite")
        try Connection(.file(plain.path)).execute("CREATE TABLE T (x)")
        let error = #expect(throws: CoreDataStoreError.self) {
            try PersistentContainer(coreDataStoreAt: plain, model: EasyLifeFixtureModel.model())
        }
        #expect(String(describing: error).contains("no Z_METADATA"))
    }

    @Test("The default open path stays strict: a Core Data store is refused")
    func defaultPathStaysStrict() throws {
        let copy = try StoreCopy(CoreDataStoreFixture.easyLifeStore)
        defer { copy.remove() }
        #expect(throws: StoreError.self) {
            try PersistentContainer(model: EasyLifeFixtureModel.model(), location: .file(copy.url))
        }
    }
}
