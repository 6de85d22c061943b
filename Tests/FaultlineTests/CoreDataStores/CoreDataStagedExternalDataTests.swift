// A staged migration's custom handlers over a Core Data store whose model
// keeps binary data externally (`allowsExternalBinaryDataStorage`): they read
// and write the values as Core Data keeps them (marker 1 inline, marker 2 a
// file under `_EXTERNAL_DATA`), and the files follow the step's transaction,
// not the handler's savepoint — written files go when the step rolls back,
// obsolete files only once it has committed.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("CoreDataStore: a staged migration's handlers over external binary data")
struct CoreDataStagedExternalDataTests {
    static let large = Data((0..<(CoreDataValueAdapter.externalThreshold + 1)).map { UInt8($0 % 241) })

    static func versions() throws -> (ModelVersion, ModelVersion) {
        let v2 = CoreDataStoreValueTests.model()
        let caption = AttributeDescription()
        caption.name = "caption"
        caption.attributeType = .stringAttributeType
        v2.entitiesByName["Photo"]?.properties.append(caption)
        return (try ModelVersion(CoreDataStoreValueTests.model(), label: "v1"), try ModelVersion(v2, label: "v2"))
    }

    static func externalFiles(_ url: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: CoreDataValueAdapter.externalDataDirectory(forStoreAt: url).path))
    }

    static func marker(_ url: URL, _ name: String) throws -> UInt8? {
        guard case .blob(let data)? = try Connection(.file(url.path)).scalar("SELECT ZDATA FROM ZPHOTO WHERE ZNAME = ?", [.text(name)])
        else { return nil }
        return data.first
    }

    /// willMigrate reads the external value through its marker, moves a large
    /// value out to a file and a small one inline; `failing` makes
    /// didMigrate throw after that save.
    static func manager(_ v1: ModelVersion, _ v2: ModelVersion, failing: Bool) -> StagedMigrationManager {
        StagedMigrationManager([
            .custom(from: v1, to: v2, willMigrate: { context in
                var photos: [String: ManagedObject] = [:]
                for photo in try context.fetch(FetchRequest(entityName: "Photo")) {
                    photos[photo.value(forKey: "name") as? String ?? ""] = photo
                }
                guard photos["external"]?.value(forKey: "data") as? Data == CoreDataStoreValueTests.fileBytes else {
                    throw CocoaError(.coderReadCorrupt)
                }
                try photos["inline"]?.setValue(large, forKey: "data")
                try photos["external"]?.setValue(Data("now small".utf8), forKey: "data")
                try context.save()
            }, didMigrate: { context in
                if failing { throw CocoaError(.featureUnsupported) }
                for photo in try context.fetch(FetchRequest(entityName: "Photo")) {
                    try photo.setValue("migrated", forKey: "caption")
                }
                try context.save()
            }),
        ])
    }

    @Test("The handlers read and write Core Data's markers; the replaced file is removed once the step commits")
    func committed() throws {
        let (directory, url) = try CoreDataStoreValueTests.makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (v1, v2) = try Self.versions()
        #expect(try Self.externalFiles(url) == [CoreDataStoreValueTests.externalName])

        #expect(try CoreDataStore.migrate(storeAt: url, to: v2, using: Self.manager(v1, v2, failing: false)) == .migrated(from: "v1"))

        #expect(try Self.marker(url, "inline") == CoreDataValueAdapter.externalMarker)
        #expect(try Self.marker(url, "external") == CoreDataValueAdapter.inlineMarker)
        let files = try Self.externalFiles(url)
        #expect(files.count == 1 && !files.contains(CoreDataStoreValueTests.externalName))
        let container = try PersistentContainer(coreDataStoreAt: url, model: CoreDataStoreValueTests.model().adding("caption"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for photo in try context.fetch(FetchRequest(entityName: "Photo")) {
                #expect(photo.value(forKey: "caption") as? String == "migrated")
                if photo.value(forKey: "name") as? String == "inline" { #expect(photo.value(forKey: "data") as? Data == Self.large) }
            }
        }
    }

    @Test("A step that fails after a handler's save: its new file is removed, the old one kept, the store still v1")
    func rolledBack() throws {
        let (directory, url) = try CoreDataStoreValueTests.makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (v1, v2) = try Self.versions()
        let rows = try Connection(.file(url.path)).rows("SELECT * FROM ZPHOTO ORDER BY Z_PK")

        #expect(throws: MigrationError.self) {
            try CoreDataStore.migrate(storeAt: url, to: v2, using: Self.manager(v1, v2, failing: true))
        }

        #expect(try Self.externalFiles(url) == [CoreDataStoreValueTests.externalName])
        #expect(try Connection(.file(url.path)).rows("SELECT * FROM ZPHOTO ORDER BY Z_PK") == rows)
        let container = try PersistentContainer(coreDataStoreAt: url, model: CoreDataStoreValueTests.model())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let external = try context.fetch(FetchRequest(entityName: "Photo")).first { $0.value(forKey: "name") as? String == "external" }
            #expect(external?.value(forKey: "data") as? Data == CoreDataStoreValueTests.fileBytes)
        }
    }
}

private extension ManagedObjectModel {
    /// This model with an optional string attribute `name` added to Photo.
    func adding(_ name: String) -> ManagedObjectModel {
        let attribute = AttributeDescription()
        attribute.name = name
        attribute.attributeType = .stringAttributeType
        entitiesByName["Photo"]?.properties.append(attribute)
        return self
    }
}
