import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("A store is never opened or migrated with the wrong model")
struct ModelMismatchTests {
    typealias S = MigrationSupport

    static func v1() -> ManagedObjectModel { S.model { Entity("Aircraft") { Attribute("tailNumber", .string) } } }
    static func unrelated() -> ManagedObjectModel { S.model { Entity("Recipe") { Attribute("title", .string) } } }

    @Test("Without migration options, another model's store fails with both hashes and how to migrate it")
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
                    && "\(error)".contains("open it with PersistentContainer(model:location:migration:)")
                    && (error as? StoreError) == .modelMismatch(storeHash: storeHash, modelHash: modelHash)
            }
        }
        #expect(throws: StoreError.modelMismatch(storeHash: storeHash, modelHash: modelHash)) {
            _ = try PersistentContainer(model: Self.unrelated(), location: .file(url))
        }
    }

    @Test("A store without Faultline's model hash points to the Core Data store initializer instead")
    func coreDataStoreAdvice() {
        let error = StoreError.modelMismatch(storeHash: StoreError.notWrittenByFaultline, modelHash: "abc=")
        #expect(error.description.contains("PersistentContainer(coreDataStoreAt:model:)"))
        #expect(!error.description.contains("migration:"))
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

    static func searchable(_ extra: Bool) -> ManagedObjectModel {
        S.model {
            Entity("Aircraft") {
                Attribute("tailNumber", .string)
                Derived("searchTail", .string, "canonical:(tailNumber)")
                if extra { Attribute("year", .integer64) }
            }
        }
    }

    /// The insert trigger as Faultline wrote it before derivations from the
    /// row's own columns were computed in its statements: no guard.
    static let unguardedTrigger = """
        CREATE TRIGGER Z_DA_ZAIRCRAFT_ZSEARCHTAIL_INSERT AFTER INSERT ON ZAIRCRAFT FOR EACH ROW
        BEGIN
            UPDATE ZAIRCRAFT SET ZSEARCHTAIL = FAULTLINE_CANONICAL(ZAIRCRAFT.ZTAILNUMBER) WHERE Z_PK = NEW.Z_PK;
        END
        """

    @Test("Derived triggers an older Faultline named or worded otherwise are replaced by a migration; any other trigger is refused")
    func triggersCompareByName() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        try S.populate(url, Self.searchable(false)) { context in
            let aircraft = try context.insertNewObject(forEntityName: "Aircraft")
            try aircraft.setValue("D-ÄBC", forKey: "tailNumber")
        }
        let connection = try Connection(.file(url.path))
        try connection.execute("DROP TRIGGER Z_DA_ZAIRCRAFT_ZSEARCHTAIL_INSERT")
        try connection.execute(Self.unguardedTrigger)
        // A derived-attribute trigger under a name the current schema does not use.
        try connection.execute("CREATE TRIGGER Z_DA_ZAIRCRAFT_ZSEARCHTAIL_RENAMED AFTER DELETE ON ZAIRCRAFT BEGIN SELECT 1; END")
        try connection.execute("CREATE TRIGGER AUDIT AFTER DELETE ON ZAIRCRAFT BEGIN SELECT 1; END")
        let before = try S.content(url)
        let migration = MigrationOptions(path: .lightweight([try ModelVersion(Self.searchable(false))]))
        #expect {
            _ = try PersistentContainer(model: Self.searchable(true), location: .file(url), migration: migration)
        } throws: { error in
            guard case MigrationError.schemaMismatch(_, let missing, let unexpected) = error else { return false }
            return missing.isEmpty && unexpected == ["TRIGGER AUDIT"]
        }
        #expect(try S.content(url) == before)

        try connection.execute("DROP TRIGGER AUDIT")
        let container = try PersistentContainer(model: Self.searchable(true), location: .file(url), migration: migration)
        let triggers = try container.coordinator.writer.withConnection {
            try $0.rows("SELECT sql FROM sqlite_master WHERE name = 'Z_DA_ZAIRCRAFT_ZSEARCHTAIL_INSERT'")
        }
        #expect(triggers.first?.first.map { "\($0)" }?.contains("WHEN NEW.ZSEARCHTAIL IS NOT") == true)
        #expect(try container.coordinator.writer.withConnection { try $0.schemaObjectNames(ofType: "trigger") }.sorted()
            == ["Z_DA_ZAIRCRAFT_ZSEARCHTAIL_INSERT", "Z_DA_ZAIRCRAFT_ZSEARCHTAIL_UPDATE_ZTAILNUMBER"])
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let aircraft = try context.fetch(FetchRequest(entityName: "Aircraft"))
            #expect(aircraft.first?.value(forKey: "searchTail") as? String == "d-abc")
        }
    }
}
