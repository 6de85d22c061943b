// Faultline's own file stores keep binary attributes that allow external
// storage as Core Data does (marker 1, then the bytes), so Core Data on Apple
// platforms and `coreDataStoreAt` read them; stores an earlier Faultline
// wrote (raw bytes) are converted once when opened for writing.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("Faultline stores keep external-storage binary data in Core Data's format")
struct ExternalDataFormatTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Photo") {
                Attribute("name", .string)
                Attribute("data", .binaryData).externalStorage()
                Attribute("plain", .binaryData)
            }
        }
    }

    static let bytes = Data([0xAA, 0x01, 0x02])

    static func makeURL() throws -> (directory: URL, url: URL) {
        let directory = try FixtureLocator.makeTemporaryDirectory()
        return (directory, directory.appendingPathComponent("Photos.sqlite"))
    }

    /// The stored `ZDATA` (and `ZPLAIN`) of the row named `name`, read with plain SQL.
    static func stored(_ url: URL, _ name: String, column: String = "ZDATA") throws -> Data? {
        let connection = try Connection(.file(url.path))
        guard case .blob(let data)? = try connection.rows("SELECT \(column) FROM ZPHOTO WHERE ZNAME = ?", [.text(name)]).first?.first
        else { return nil }
        return data
    }

    static func metadata(_ url: URL) throws -> StoreMetadata {
        try StoreBootstrap.metadata(on: Connection(.file(url.path)))
    }

    static func save(_ container: PersistentContainer, _ rows: [(String, Data)]) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws -> Void in
            for (name, data) in rows {
                let photo = try context.insertNewObject(forEntityName: "Photo")
                try photo.setValue(name, forKey: "name")
                try photo.setValue(data, forKey: "data")
                try photo.setValue(data, forKey: "plain")
            }
            try context.save()
        }
    }

    static func values(_ container: PersistentContainer, _ format: String = "TRUEPREDICATE", _ arguments: Any...) throws -> [String: Data] {
        let context = container.newBackgroundContext()
        return try context.performAndWait { () throws -> [String: Data] in
            let request = FetchRequest(entityName: "Photo", predicate: try FetchPredicate(format: format, argumentArray: arguments))
            var byName: [String: Data] = [:]
            for object in try context.fetch(request) {
                byName[object.value(forKey: "name") as? String ?? ""] = object.value(forKey: "data") as? Data
            }
            return byName
        }
    }

    @Test("A save writes marker 1 and the bytes, at every size; the plain container and coreDataStoreAt read the bytes back")
    func saveWritesMarker() throws {
        let (directory, url) = try Self.makeURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let large = Data(repeating: 7, count: MarkedDataAttributes.externalThreshold + 10)
        do {
            let container = try PersistentContainer(model: Self.model(), location: .file(url))
            try Self.save(container, [("small", Self.bytes), ("large", large)])
            #expect(try Self.values(container) == ["small": Self.bytes, "large": large])
        }
        #expect(try Self.stored(url, "small") == Data([1]) + Self.bytes)
        #expect(try Self.stored(url, "large") == Data([1]) + large)
        // An attribute without external storage stays raw, as Core Data keeps it.
        #expect(try Self.stored(url, "small", column: "ZPLAIN") == Self.bytes)
        #expect(try Self.metadata(url).additional[StoreBootstrap.externalDataFormatKey] == .string(StoreBootstrap.externalDataFormat))
        // No file is ever written beside a Faultline store.
        #expect(!FileManager.default.fileExists(atPath: CoreDataValueAdapter.externalDataDirectory(forStoreAt: url).path))
        let coreData = try PersistentContainer(coreDataStoreAt: url, model: Self.model())
        #expect(try Self.values(coreData) == ["small": Self.bytes, "large": large])
    }

    @Test("A row saved through coreDataStoreAt reads back through the plain container")
    func coreDataPathRoundTrips() throws {
        let (directory, url) = try Self.makeURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let large = Data(repeating: 3, count: MarkedDataAttributes.externalThreshold + 1)
        _ = try PersistentContainer(model: Self.model(), location: .file(url))
        do {
            let coreData = try PersistentContainer(coreDataStoreAt: url, model: Self.model())
            try Self.save(coreData, [("small", Self.bytes), ("large", large)])
        }
        // The large value went to a file, as Core Data writes it; the plain container reads it too.
        #expect(try Self.stored(url, "large")?.first == CoreDataValueAdapter.externalMarker)
        let container = try PersistentContainer(model: Self.model(), location: .file(url))
        #expect(try Self.values(container) == ["small": Self.bytes, "large": large])
    }

    @Test("Batch insert and batch update write marker 1 and the bytes")
    func batchWritesMarker() throws {
        let (directory, url) = try Self.makeURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try PersistentContainer(model: Self.model(), location: .file(url))
        try container.coordinator.execute(try BatchInsertRequest(
            entityName: "Photo", in: container.model, objects: [["name": "inserted", "data": Self.bytes, "plain": Self.bytes]]))
        #expect(try Self.stored(url, "inserted") == Data([1]) + Self.bytes)
        #expect(try Self.stored(url, "inserted", column: "ZPLAIN") == Self.bytes)
        #expect(try Self.values(container) == ["inserted": Self.bytes])
        var update = BatchUpdateRequest(entityName: "Photo", predicate: try FetchPredicate(format: "data == %@", Self.bytes))
        update.propertiesToUpdate = ["data": .value(.data(Data([0x02, 0x03])))]
        update.resultType = .count
        #expect(try container.coordinator.execute(update).count == 1)
        #expect(try Self.stored(url, "inserted") == Data([1, 0x02, 0x03]))
        #expect(try Self.values(container) == ["inserted": Data([0x02, 0x03])])
    }

    @Test("== on an external-storage attribute matches after a save, small and over 100 KB")
    func equalityMatchesAfterSave() throws {
        let (directory, url) = try Self.makeURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let large = Data(repeating: 9, count: MarkedDataAttributes.externalThreshold + 1)
        let container = try PersistentContainer(model: Self.model(), location: .file(url))
        try Self.save(container, [("small", Self.bytes), ("large", large)])
        #expect(try Self.values(container, "data == %@", Self.bytes) == ["small": Self.bytes])
        #expect(try Self.values(container, "data == %@", large) == ["large": large])
        #expect(try Self.values(container, "data != %@", Self.bytes) == ["large": large])
    }

    /// A store as an earlier Faultline left it: raw bytes, no format key.
    static func makeOldStore(_ url: URL, _ rows: [(String, Data)]) throws {
        do {
            let container = try PersistentContainer(model: Self.model(), location: .file(url))
            try Self.save(container, rows)
        }
        let connection = try Connection(.file(url.path))
        for (name, data) in rows {
            try connection.execute("UPDATE ZPHOTO SET ZDATA = ? WHERE ZNAME = ?", [.blob(data), .text(name)])
        }
        var metadata = try StoreBootstrap.metadata(on: connection)
        metadata.additional.removeValue(forKey: StoreBootstrap.externalDataFormatKey)
        try metadata.write(on: connection)
    }

    @Test("A store an earlier Faultline wrote (raw bytes) is converted once when opened for writing, and reads raw read-only")
    func oldStoreIsConvertedOnce() throws {
        let (directory, url) = try Self.makeURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A first byte of 1 or 2 must not be taken for a marker.
        let rows = [("one", Data([1, 0xAA])), ("two", Data([2, 0x41])), ("empty", Data())]
        try Self.makeOldStore(url, rows)
        #expect(try Self.stored(url, "one") == Data([1, 0xAA]))
        do {
            let readOnly = try PersistentContainer(model: Self.model(), location: .file(url), readOnly: true)
            #expect(try Self.values(readOnly) == Dictionary(uniqueKeysWithValues: rows))
        }
        // Read-only: nothing converted.
        #expect(try Self.stored(url, "one") == Data([1, 0xAA]))
        #expect(try Self.metadata(url).additional[StoreBootstrap.externalDataFormatKey] == nil)
        do {
            let container = try PersistentContainer(model: Self.model(), location: .file(url))
            #expect(try Self.values(container) == Dictionary(uniqueKeysWithValues: rows))
            #expect(try Self.values(container, "data == %@", Data([2, 0x41])) == ["two": Data([2, 0x41])])
        }
        #expect(try Self.stored(url, "one") == Data([1, 1, 0xAA]))
        #expect(try Self.stored(url, "two") == Data([1, 2, 0x41]))
        #expect(try Self.stored(url, "empty") == Data([1]))
        #expect(try Self.metadata(url).additional[StoreBootstrap.externalDataFormatKey] == .string(StoreBootstrap.externalDataFormat))
        // Opened again: converted already, never marked twice.
        let again = try PersistentContainer(model: Self.model(), location: .file(url))
        #expect(try Self.values(again) == Dictionary(uniqueKeysWithValues: rows))
        #expect(try Self.stored(url, "one") == Data([1, 1, 0xAA]))
        let coreData = try PersistentContainer(coreDataStoreAt: url, model: Self.model())
        #expect(try Self.values(coreData) == Dictionary(uniqueKeysWithValues: rows))
    }

    static func offModel() -> ManagedObjectModel {
        let off = model()
        for case let attribute as AttributeDescription in off.entitiesByName["Photo"]?.properties ?? [] where attribute.name == "data" {
            attribute.allowsExternalBinaryDataStorage = false
        }
        return off
    }

    @Test("A lightweight migration across allowsExternalBinaryDataStorage rewrites a Faultline store's column: off strips the marker, on adds it inline")
    func migrationCarriesTheFormat() throws {
        let (directory, url) = try Self.makeURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let large = Data((0..<(MarkedDataAttributes.externalThreshold + 1)).map { UInt8($0 % 239) })
        let on = try ModelVersion(Self.model(), label: "on"), off = try ModelVersion(Self.offModel(), label: "off")
        do {
            let container = try PersistentContainer(model: Self.model(), location: .file(url))
            try Self.save(container, [("small", Self.bytes), ("large", large)])
        }
        do {
            let container = try PersistentContainer(model: Self.offModel(), location: .file(url),
                                                    migration: MigrationOptions(path: .lightweight([on])))
            #expect(try Self.values(container) == ["small": Self.bytes, "large": large])
        }
        #expect(try Self.stored(url, "small") == Self.bytes)
        #expect(try Self.stored(url, "large") == large)
        do {
            let container = try PersistentContainer(model: Self.model(), location: .file(url),
                                                    migration: MigrationOptions(path: .lightweight([off])))
            #expect(try Self.values(container) == ["small": Self.bytes, "large": large])
            #expect(try Self.values(container, "data == %@", Self.bytes) == ["small": Self.bytes])
        }
        #expect(try Self.stored(url, "small") == Data([1]) + Self.bytes)
        #expect(try Self.stored(url, "large") == Data([1]) + large)
        #expect(!FileManager.default.fileExists(atPath: CoreDataValueAdapter.externalDataDirectory(forStoreAt: url).path))
    }

    @Test("An earlier Faultline's store migrated across the flag stays raw, and is converted when opened with the flag on")
    func oldStoreMigrates() throws {
        let (directory, url) = try Self.makeURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = [("one", Data([1, 0xAA]))]
        try Self.makeOldStore(url, rows)
        let on = try ModelVersion(Self.model(), label: "on"), off = try ModelVersion(Self.offModel(), label: "off")
        do {
            let container = try PersistentContainer(model: Self.offModel(), location: .file(url),
                                                    migration: MigrationOptions(path: .lightweight([on])))
            #expect(try Self.values(container) == ["one": Data([1, 0xAA])])
        }
        #expect(try Self.stored(url, "one") == Data([1, 0xAA]))
        do {
            let container = try PersistentContainer(model: Self.model(), location: .file(url),
                                                    migration: MigrationOptions(path: .lightweight([off])))
            #expect(try Self.values(container) == ["one": Data([1, 0xAA])])
        }
        #expect(try Self.stored(url, "one") == Data([1, 1, 0xAA]))
    }

    @Test("A deleted row's history tombstone gives an external-storage attribute's bytes, not the stored marker")
    func tombstoneDecodes() throws {
        let (directory, url) = try Self.makeURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = ManagedObjectModel {
            Entity("Photo") {
                Attribute("name", .string)
                Attribute("data", .binaryData).externalStorage().preservesValueInHistoryOnDeletion()
                Attribute("plain", .binaryData)
            }
        }
        let container = try PersistentContainer(model: model, location: .file(url), persistentHistoryTracking: true)
        try Self.save(container, [("gone", Self.bytes)])
        #expect(try Self.stored(url, "gone") == Data([1]) + Self.bytes)
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws -> Void in
            for object in try context.fetch(FetchRequest(entityName: "Photo")) { context.delete(object) }
            try context.save()
            let transactions = try context.execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
            let deletes = transactions.flatMap(\.changes).filter { $0.changeType == .delete }
            #expect(deletes.map { $0.tombstone?["data"] } == [.data(Self.bytes)])
        }
    }

    @Test("A staged migration's handlers over a Faultline file store read the bytes and write marker 1 inline")
    func stagedHandlersUseTheFormat() throws {
        let (directory, url) = try Self.makeURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let v2Model = Self.model()
        let caption = AttributeDescription()
        caption.name = "caption"
        caption.attributeType = .stringAttributeType
        v2Model.entitiesByName["Photo"]?.properties.append(caption)
        let v1 = try ModelVersion(Self.model(), label: "v1"), v2 = try ModelVersion(v2Model, label: "v2")
        let large = Data(repeating: 5, count: MarkedDataAttributes.externalThreshold + 1)
        do {
            let container = try PersistentContainer(model: Self.model(), location: .file(url))
            try Self.save(container, [("photo", Self.bytes)])
        }
        let manager = StagedMigrationManager([
            .custom(from: v1, to: v2, willMigrate: { context in
                for photo in try context.fetch(FetchRequest(entityName: "Photo")) {
                    guard photo.value(forKey: "data") as? Data == Self.bytes else { throw CocoaError(.coderReadCorrupt) }
                    try photo.setValue(large, forKey: "data")
                }
                try context.save()
            }, didMigrate: nil),
        ])
        let container = try PersistentContainer(model: v2Model, location: .file(url),
                                                migration: MigrationOptions(path: .staged(manager)))
        #expect(try Self.stored(url, "photo") == Data([1]) + large)
        #expect(try Self.values(container) == ["photo": large])
        #expect(!FileManager.default.fileExists(atPath: CoreDataValueAdapter.externalDataDirectory(forStoreAt: url).path))
    }
}
