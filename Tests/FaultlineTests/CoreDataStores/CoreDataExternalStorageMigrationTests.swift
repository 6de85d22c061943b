// Migrating a Core Data store between versions that differ only in a binary
// attribute's `allowsExternalBinaryDataStorage`: the flag changes the column's
// format (marker byte, files), not its type, so the migration must rewrite
// the values — or the new model reads markers as data and data as markers.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("CoreDataStore: migrating a change of allowsExternalBinaryDataStorage rewrites the column")
struct CoreDataExternalStorageMigrationTests {
    typealias Store = CoreDataStoreValueTests
    static let large = Data((0..<(CoreDataValueAdapter.externalThreshold + 1)).map { UInt8($0 % 239) })

    /// The store's model ("on") and the same without external storage ("off").
    static func versions() throws -> (on: ModelVersion, off: ModelVersion) {
        (try ModelVersion(Store.model(), label: "on"), try ModelVersion(offModel(), label: "off"))
    }

    static func offModel() -> ManagedObjectModel {
        let off = Store.model()
        for case let attribute as AttributeDescription in off.entitiesByName["Photo"]?.properties ?? [] where attribute.name == "data" {
            attribute.allowsExternalBinaryDataStorage = false
        }
        return off
    }

    static func values(_ url: URL, _ model: ManagedObjectModel) throws -> [String: Data] {
        let context = try PersistentContainer(coreDataStoreAt: url, model: model).newBackgroundContext()
        return try context.performAndWait {
            var values: [String: Data] = [:]
            for object in try context.fetch(FetchRequest(entityName: "Photo")) {
                values[object.value(forKey: "name") as? String ?? ""] = object.value(forKey: "data") as? Data
            }
            return values
        }
    }

    static func stored(_ url: URL, _ name: String) throws -> Data? {
        guard case .blob(let data)? = try Connection(.file(url.path)).scalar("SELECT ZDATA FROM ZPHOTO WHERE ZNAME = ?", [.text(name)])
        else { return nil }
        return data
    }

    @Test("on → off inlines every value (a file's bytes read, the file removed); off → on marks them again, large ones in files")
    func roundTrip() throws {
        let store = try Store.makeStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        // A reference whose file is missing would refuse the migration (below).
        try Connection(.file(store.url.path)).execute("DELETE FROM ZPHOTO WHERE ZNAME = 'missing'")
        let (on, off) = try Self.versions()
        let directory = CoreDataValueAdapter.externalDataDirectory(forStoreAt: store.url)

        #expect(try CoreDataStore.migrate(storeAt: store.url, to: off, from: [on]) == .migrated(from: "on"))
        let inline = Data("inline bytes".utf8)
        #expect(try Self.values(store.url, Self.offModel()) == ["inline": inline, "external": Store.fileBytes])
        #expect(try Self.stored(store.url, "inline") == inline)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)

        // Plain values, one that looks like a marker and one over the threshold.
        let raw = try Connection(.file(store.url.path))
        try raw.execute("INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZNAME, ZDATA) VALUES (4, 1, 1, 'lookalike', ?), (5, 1, 1, 'large', ?)",
                        [.blob(Data([1, 0xAA])), .blob(Self.large)])
        try raw.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 5 WHERE Z_ENT = 1")
        #expect(try CoreDataStore.migrate(storeAt: store.url, to: on, from: [off]) == .migrated(from: "off"))
        #expect(try Self.values(store.url, Store.model())
                == ["inline": inline, "external": Store.fileBytes, "lookalike": Data([1, 0xAA]), "large": Self.large])
        #expect(try Self.stored(store.url, "inline") == Data([1]) + inline)
        #expect(try Self.stored(store.url, "large")?.first == CoreDataValueAdapter.externalMarker)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
    }

    @Test("on → off with a referenced file missing is refused, the store unchanged")
    func missingFileRefuses() throws {
        let store = try Store.makeStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let (on, off) = try Self.versions()
        let before = try Self.stored(store.url, "external")
        #expect(throws: MigrationError.self) { try CoreDataStore.migrate(storeAt: store.url, to: off, from: [on]) }
        #expect(try Self.stored(store.url, "external") == before)
        #expect(FileManager.default.fileExists(
            atPath: CoreDataValueAdapter.externalDataDirectory(forStoreAt: store.url).appendingPathComponent(Store.externalName).path))
    }
}
