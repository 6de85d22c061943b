import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("A store is never opened or migrated with the wrong model")
struct ModelMismatchTests {
    typealias S = MigrationSupport

    static func v1() -> ManagedObjectModel { S.model { Entity("Aircraft") { Attribute("tailNumber", .string) } } }
    static func unrelated() -> ManagedObjectModel { S.model { Entity("Recipe") { Attribute("title", .string) } } }

    @Test("Without migration options, another model's store fails with both hashes")
    func noMigrationAllowed() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        try S.populate(url, Self.v1()) { context in _ = try context.insertNewObject(forEntityName: "Aircraft") }
        let storeHash = try Self.v1().checked().versionChecksum
        let modelHash = try Self.unrelated().checked().versionChecksum
        for options in [MigrationOptions.none] {
            #expect {
                _ = try PersistentContainer(model: Self.unrelated(), location: .file(url), migration: options)
            } throws: { error in
                "\(error)".contains(storeHash) && "\(error)".contains(modelHash)
                    && (error as? StoreError) == .modelMismatch(storeHash: storeHash, modelHash: modelHash)
            }
        }
        #expect(throws: StoreError.modelMismatch(storeHash: storeHash, modelHash: modelHash)) {
            _ = try PersistentContainer(model: Self.unrelated(), location: .file(url))
        }
    }

    @Test("An unrelated model with lightweight migration offered: no path, both hashes named")
    func unrelatedModelHasNoPath() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        try S.populate(url, Self.v1()) { context in _ = try context.insertNewObject(forEntityName: "Aircraft") }
        let before = try S.content(url)
        let storeHash = try Self.v1().checked().versionChecksum
        let modelHash = try Self.unrelated().checked().versionChecksum
        #expect {
            _ = try PersistentContainer(
                model: Self.unrelated(), location: .file(url),
                migration: MigrationOptions(path: .lightweight([try ModelVersion(Self.unrelated())])))
        } throws: { error in
            "\(error)".contains(storeHash) && "\(error)".contains(modelHash)
        }
        #expect(try S.content(url) == before)
    }

    @Test("A claimed old model whose schema differs from the store's is refused before any change")
    func claimedModelMustMatchSchema() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        try S.populate(url, Self.v1()) { context in _ = try context.insertNewObject(forEntityName: "Aircraft") }
        // Tamper: the store claims v1 but has an extra index.
        try Connection(.file(url.path)).execute("CREATE INDEX ZAIRCRAFT_EXTRA ON ZAIRCRAFT (ZTAILNUMBER)")
        let before = try S.content(url)
        let v2 = S.model { Entity("Aircraft") { Attribute("tailNumber", .string); Attribute("year", .integer64) } }
        #expect {
            _ = try PersistentContainer(model: v2, location: .file(url),
                                        migration: MigrationOptions(path: .lightweight([try ModelVersion(Self.v1())])))
        } throws: { error in
            guard case MigrationError.schemaMismatch(_, _, let unexpected) = error else { return false }
            return unexpected.contains { $0.contains("ZAIRCRAFT_EXTRA") }
        }
        #expect(try S.content(url) == before)
    }
}
