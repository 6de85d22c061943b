// A compiled `.mom` file (CartKit's `CartStorage.momd`) decodes to the model
// its source `CartStorage.xcdatamodeld` gives, with the version hashes of the
// `VersionInfo.plist` beside it. (The committed model is CartKit's second
// version; the v1 store in the fixtures was written by the first, which only
// its model cache and the code model in the store tests describe.)

import Foundation
import Testing
@testable import Faultline

@Suite("Compiled .mom files")
struct CompiledMOMTests {
    @Test("CartStorage.mom equals the model read from CartStorage.xcdatamodeld")
    func equalsModelFile() throws {
        let mom = try CompiledModelReader.model(fromMOM: try CompiledModelFixtures.url(CompiledModelFixtures.cartKitMOM))
        #expect(mom.warnings.isEmpty, "\(mom.warnings)")
        #expect(mom.name == "CartStorage")
        let file = try CoreDataStoreFixture.modelFile(.cartKit, version: nil).checked()
        let compiled = try mom.model.checked()
        #expect(compiled == file, "\(CompiledModelFixtures.differences(compiled, file))")
    }

    @Test("CartStorage.mom carries the VersionInfo.plist hashes, equal to those the source bundle gets")
    func versionHashes() throws {
        let mom = try CompiledModelReader.model(fromMOM: try CompiledModelFixtures.url(CompiledModelFixtures.cartKitMOM))
        let bundle = try ModelFileReader().read(at: try ModelFileTestSupport.fixture(.cartKit))
        let hashes = try #require(mom.coreDataEntityVersionHashes)
        #expect(hashes.keys.sorted() == mom.model.entities.compactMap(\.name).sorted())
        #expect(hashes == bundle.current?.coreDataEntityVersionHashes)
    }

    @Test("CartStorage.mom's hashes are checked against a store: the v1 store, written by an older model, is refused")
    func hashesRefuseOlderStore() throws {
        let mom = try CompiledModelReader.model(fromMOM: try CompiledModelFixtures.url(CompiledModelFixtures.cartKitMOM))
        let copy = try StoreCopy(CoreDataStoreFixture.cartKitStore)
        defer { copy.remove() }
        let options = CoreDataStoreOptions(coreDataEntityVersionHashes: mom.coreDataEntityVersionHashes)
        do {
            _ = try PersistentContainer(coreDataStoreAt: copy.url, model: mom.model, options: options)
            Issue.record("the v2 model opened the v1 store")
        } catch CoreDataStoreError.modelMismatch(_, let differences) {
            #expect(differences.contains { "\($0)".contains("entity CDCart: store hash") }, "\(differences)")
        }
    }

    @Test("A missing .mom is unreadable")
    func missing() {
        #expect { try CompiledModelReader.model(fromMOM: URL(fileURLWithPath: "/no/such/Model.mom")) } throws: {
            ($0 as? CompiledModelError)?.kind == .unreadable
        }
    }
}
