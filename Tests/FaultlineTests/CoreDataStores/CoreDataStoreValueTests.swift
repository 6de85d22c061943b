// Value encodings no fixture store exercises, in a store laid out as Core Data
// lays it out (created from the model, then written with plain SQL the way
// Core Data writes): external binary data (marker 1 inline, marker 2 a file
// under `.<StoreName>_SUPPORT/_EXTERNAL_DATA/`), transformables through a
// registered transformer, UUID blobs, and triggers calling Core Data's SQL
// functions (NSCoreDataNow is implemented; others refuse the write cleanly).

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("CoreDataStore: external data, transformables and Core Data's SQL functions")
struct CoreDataStoreValueTests {
    static let tagsTransformer = ValueTransformerRegistry.registerCodable([String].self)

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Photo") {
                Attribute("name", .string)
                Attribute("data", .binaryData).externalStorage()
                Attribute("thumbnail", .binaryData).externalStorage()
                Attribute("stamp", .date)
                Attribute("tags", .transformable).transformer(tagsTransformer)
                Attribute("uuid", .uuid)
            }
        }
    }

    static let externalName = "7A3E0A52-1C1F-4E0B-9C2E-2B8E3C4D5F60"
    static let missingName = "00000000-1C1F-4E0B-9C2E-2B8E3C4D5F60"
    static let fileBytes = Data((0..<300).map { UInt8($0 % 251) })
    static let identifier = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")

    /// `Photos.sqlite` in a new directory, rows written as Core Data writes them.
    static func makeStore(trigger: String? = nil) throws -> (directory: URL, url: URL) {
        let directory = try FixtureLocator.makeTemporaryDirectory()
        let url = directory.appendingPathComponent("Photos.sqlite")
        let connection = try Connection(.file(url.path))
        try StoreFunctions.register(on: connection)
        try StoreBootstrap.create(StoreSchema(compiling: model().checked()), on: connection)
        var uuidBytes = Data()
        if let identifier { withUnsafeBytes(of: identifier.uuid) { uuidBytes.append(contentsOf: $0) } }
        let tags = try JSONEncoder().encode(["a", "b"])
        try connection.execute(
            "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZNAME, ZDATA, ZTAGS, ZUUID, ZSTAMP) VALUES (1, 1, 1, 'inline', ?, ?, ?, 100)",
            [.blob(Data([1]) + Data("inline bytes".utf8)), .blob(tags), .blob(uuidBytes)])
        try connection.execute(
            "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZNAME, ZDATA) VALUES (2, 1, 1, 'external', ?)",
            [.blob(Data([2]) + Data(externalName.utf8) + Data([0]))])
        try connection.execute(
            "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZNAME, ZDATA) VALUES (3, 1, 1, 'missing', ?)",
            [.blob(Data([2]) + Data(missingName.utf8))])
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_ENT = 1")
        if let trigger { try connection.execute(trigger) }
        let external = CoreDataValueAdapter.externalDataDirectory(forStoreAt: url)
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try fileBytes.write(to: external.appendingPathComponent(externalName))
        return (directory, url)
    }

    private func photos(_ context: ManagedObjectContext) throws -> [String: ManagedObject] {
        var byName: [String: ManagedObject] = [:]
        for object in try context.fetch(FetchRequest(entityName: "Photo")) {
            byName[object.value(forKey: "name") as? String ?? ""] = object
        }
        return byName
    }

    @Test("Values over 100 KB are written as Core Data writes them: a file in _EXTERNAL_DATA and marker 2 with its name")
    func largeValuesGoToFiles() throws {
        let store = try Self.makeStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let large = Data((0..<(CoreDataValueAdapter.externalThreshold + 1)).map { UInt8($0 % 253) })
        let small = Data(repeating: 7, count: CoreDataValueAdapter.externalThreshold)
        let container = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for (name, data) in [("large", large), ("small", small)] {
                let photo = try context.insertNewObject(forEntityName: "Photo")
                try photo.setValue(name, forKey: "name")
                try photo.setValue(data, forKey: "data")
            }
            try photos(context)["inline"]?.setValue(large, forKey: "data")
            try context.save()
            // The saving context and the row cache hold the values, not the markers.
            #expect(try photos(context)["large"]?.value(forKey: "data") as? Data == large)
        }
        let raw = try Connection(.file(store.url.path))
        let directory = CoreDataValueAdapter.externalDataDirectory(forStoreAt: store.url)
        for name in ["large", "inline"] {
            guard case .blob(let stored)? = try raw.scalar("SELECT ZDATA FROM ZPHOTO WHERE ZNAME = ?", [.text(name)]) else {
                Issue.record("\(name): no blob")
                continue
            }
            #expect(stored.first == 2 && stored.last == 0 && stored.count == 38, "\(name): \(stored.count) bytes")
            let file = String(decoding: stored.dropFirst().dropLast(), as: UTF8.self)
            #expect(UUID(uuidString: file) != nil)
            #expect(try Data(contentsOf: directory.appendingPathComponent(file)) == large)
        }
        #expect(try raw.scalar("SELECT length(ZDATA) FROM ZPHOTO WHERE ZNAME = 'small'") == .integer(Int64(small.count + 1)))
        let fresh = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model()).newBackgroundContext()
        try fresh.performAndWait {
            let byName = try photos(fresh)
            #expect(byName["large"]?.value(forKey: "data") as? Data == large)
            #expect(byName["inline"]?.value(forKey: "data") as? Data == large)
            #expect(byName["small"]?.value(forKey: "data") as? Data == small)
        }
    }

    @Test("A batch update may clear an external-storage attribute: its files go once the update commits, the other attribute's stay")
    func batchUpdateClearsExternalStorage() throws {
        let store = try Self.makeStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let directory = CoreDataValueAdapter.externalDataDirectory(forStoreAt: store.url)
        let thumbnailName = "5B1C0A52-1C1F-4E0B-9C2E-2B8E3C4D5F61"
        try Data([9, 9]).write(to: directory.appendingPathComponent(thumbnailName))
        try Connection(.file(store.url.path)).execute(
            "UPDATE ZPHOTO SET ZTHUMBNAIL = ? WHERE Z_PK = 2", [.blob(Data([2]) + Data(thumbnailName.utf8) + Data([0]))])
        let container = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model())
        let context = container.newBackgroundContext()
        let external = try context.performAndWait { try photos(context)["external"] }
        context.performAndWait { #expect(external?.value(forKey: "data") as? Data == Self.fileBytes) }

        var clear = BatchUpdateRequest(
            entityName: "Photo", predicate: try FetchPredicate(format: "name IN %@", ["external", "inline"]),
            propertiesToUpdate: ["data": .value(.null)])
        clear.resultType = .count
        let result = try container.coordinator.execute(clear)
        #expect(result.count == 2)
        let raw = try Connection(.file(store.url.path))
        #expect(try raw.rows("SELECT ZNAME, ZDATA IS NULL, Z_OPT FROM ZPHOTO ORDER BY Z_PK")
                == [[.text("inline"), .integer(1), .integer(2)], [.text("external"), .integer(1), .integer(2)],
                    [.text("missing"), .integer(0), .integer(1)]])
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(Self.externalName).path))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(thumbnailName).path))
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [context])
        context.performAndWait {
            #expect(external?.value(forKey: "data") == nil)
            #expect(external?.value(forKey: "thumbnail") as? Data == Data([9, 9]))
        }
    }

    @Test("Batch requests refuse writing values into external-storage attributes of a Core Data store (they bypass the markers); others still run")
    func batchRequestsRefuseExternalStorage() throws {
        let store = try Self.makeStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let coordinator = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model()).coordinator
        let insert = try BatchInsertRequest(entityName: "Photo", in: coordinator.model, objects: [["name": "batch"]])
        #expect(throws: BatchError.readOnlyProperty(entity: "Photo", key: "data")) { try coordinator.execute(insert) }
        let update = BatchUpdateRequest(entityName: "Photo", propertiesToUpdate: ["data": .value(.data(Data([1])))])
        #expect(throws: BatchError.readOnlyProperty(entity: "Photo", key: "data")) { try coordinator.execute(update) }
        var rename = BatchUpdateRequest(entityName: "Photo", propertiesToUpdate: ["name": .value(.string("renamed"))])
        rename.resultType = .count
        #expect(try coordinator.execute(rename).count == 3)
        #expect(try Connection(.file(store.url.path)).scalar("SELECT ZDATA FROM ZPHOTO WHERE Z_PK = 2")
                == .blob(Data([2]) + Data(Self.externalName.utf8) + Data([0])))
    }

    @Test("An app's own tables beside Core Data's are left alone; an unknown Z table is still a mismatch")
    func foreignTables() throws {
        let store = try Self.makeStore(trigger: """
            CREATE TABLE AppCache (key TEXT PRIMARY KEY, value BLOB);
            CREATE INDEX AppCache_value ON AppCache (value);
            INSERT INTO AppCache VALUES ('k', x'01')
            """)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let context = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model()).newBackgroundContext()
        try context.performAndWait {
            try photos(context)["inline"]?.setValue("renamed", forKey: "name")
            try context.save()
        }
        let raw = try Connection(.file(store.url.path))
        #expect(try raw.scalar("SELECT count(*) FROM AppCache") == .integer(1))
        try raw.execute("CREATE TABLE ZSTRAY (Z_PK INTEGER PRIMARY KEY)")
        #expect {
            try PersistentContainer(coreDataStoreAt: store.url, model: Self.model())
        } throws: {
            guard case CoreDataStoreError.modelMismatch(_, let differences) = $0 else { return false }
            return differences == [.tableOnlyInStore(table: "ZSTRAY")]
        }
    }

    @Test("Rows imported outside Core Data (Z_MAX behind the largest Z_PK): new keys start above them")
    func importedRowsAboveZMax() throws {
        let store = try Self.makeStore(trigger: "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (10, 1, 1, 'imported')")
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let inspection = try CoreDataStore.inspect(url: store.url, model: Self.model().checked())
        #expect(inspection.keyFloors == [1: 10])
        let context = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model()).newBackgroundContext()
        let key = try context.performAndWait { () throws -> Int64 in
            let photo = try context.insertNewObject(forEntityName: "Photo")
            try photo.setValue("new", forKey: "name")
            try context.save()
            return photo.objectID.primaryKey
        }
        #expect(key == 11)
        let raw = try Connection(.file(store.url.path))
        #expect(try raw.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") == .integer(11))
        #expect(try raw.scalar("SELECT ZNAME FROM ZPHOTO WHERE Z_PK = 10") == .text("imported"))
    }

    @Test("Replacing or deleting an external value removes its file once the save commits; a failed save keeps it")
    func replacedAndDeletedFilesAreRemoved() throws {
        let store = try Self.makeStore(trigger: """
            CREATE TRIGGER Z_REFUSE AFTER UPDATE OF ZNAME ON ZPHOTO FOR EACH ROW WHEN NEW.ZNAME = 'refused'
            BEGIN SELECT NSCoreDataTriggerUndocumented(NEW.Z_PK); END
            """)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let directory = CoreDataValueAdapter.externalDataDirectory(forStoreAt: store.url)
        let fixtureFile = directory.appendingPathComponent(Self.externalName)
        let large = Data(repeating: 3, count: CoreDataValueAdapter.externalThreshold + 1)
        let context = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model()).newBackgroundContext()
        try context.performAndWait {
            // A failed save that would replace the fixture's file leaves it.
            let external = try #require(try photos(context)["external"])
            try external.setValue(Data([1]), forKey: "data")
            try external.setValue("refused", forKey: "name")
            #expect(throws: (any Error).self) { try context.save() }
            context.rollback()
        }
        #expect(FileManager.default.fileExists(atPath: fixtureFile.path))
        try context.performAndWait {
            let big = try context.insertNewObject(forEntityName: "Photo")
            try big.setValue("big", forKey: "name")
            try big.setValue(large, forKey: "data")
            try context.save()
        }
        let bigFiles = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)).subtracting([Self.externalName])
        #expect(bigFiles.count == 1)
        try context.performAndWait {
            let byName = try photos(context)
            try byName["external"]?.setValue(Data([1, 2]), forKey: "data")
            context.delete(try #require(byName["big"]))
            try context.save()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let check = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model()).newBackgroundContext()
        let data = try check.performAndWait { try photos(check)["external"]?.value(forKey: "data") as? Data }
        #expect(data == Data([1, 2]))
    }

    @Test("A batch delete removes the files of the rows it deletes once it commits; one that fails removes none")
    func batchDeleteReleasesFiles() throws {
        let store = try Self.makeStore(trigger: """
            CREATE TRIGGER Z_REFUSE BEFORE DELETE ON ZPHOTO FOR EACH ROW WHEN OLD.ZNAME = 'inline'
            BEGIN SELECT NSCoreDataTriggerUndocumented(OLD.Z_PK); END
            """)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let file = CoreDataValueAdapter.externalDataDirectory(forStoreAt: store.url).appendingPathComponent(Self.externalName)
        let coordinator = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model()).coordinator
        #expect(throws: (any Error).self) { try coordinator.execute(BatchDeleteRequest(entityName: "Photo")) }
        #expect(FileManager.default.fileExists(atPath: file.path), "rolled back: the row still names its file")
        var external = BatchDeleteRequest(entityName: "Photo", predicate: try FetchPredicate(format: "name == %@", "external"))
        external.resultType = .count
        #expect(try coordinator.execute(external).count == 1)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try Connection(.file(store.url.path)).scalar("SELECT count(*) FROM ZPHOTO") == .integer(2))
    }

    @Test("A damaged reference naming .. reads as missing, and replacing it removes nothing outside _EXTERNAL_DATA")
    func damagedReferenceRemovesNothing() throws {
        let store = try Self.makeStore(trigger: "UPDATE ZPHOTO SET ZDATA = X'022E2E00' WHERE Z_PK = 3")
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let directory = CoreDataValueAdapter.externalDataDirectory(forStoreAt: store.url)
        let container = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let damaged = try #require(try photos(context)["missing"])
            #expect(damaged.value(forKey: "data") == nil)
            try damaged.setValue(Data([5]), forKey: "data")
            context.delete(try #require(try photos(context)["external"]))
            try context.save()
        }
        #expect(container.coordinator.missingExternalDataFiles == [".."])
        // The legitimately released file went; the folders stayed.
        #expect(FileManager.default.fileExists(atPath: directory.path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(Self.externalName).path))
        #expect(FileManager.default.fileExists(atPath: store.url.path))
    }

    @Test("A save that fails after writing an external file leaves no file behind")
    func failedSaveRemovesItsFiles() throws {
        let store = try Self.makeStore(trigger: """
            CREATE TRIGGER Z_REFUSE AFTER INSERT ON ZPHOTO FOR EACH ROW
            BEGIN SELECT NSCoreDataTriggerUndocumented(NEW.Z_PK); END
            """)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let directory = CoreDataValueAdapter.externalDataDirectory(forStoreAt: store.url)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let context = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model()).newBackgroundContext()
        try context.performAndWait {
            let photo = try context.insertNewObject(forEntityName: "Photo")
            try photo.setValue(Data(repeating: 1, count: CoreDataValueAdapter.externalThreshold * 2), forKey: "data")
            #expect(throws: (any Error).self) { try context.save() }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
    }

    @Test("External binary data: marker 1 inline, marker 2 from _EXTERNAL_DATA; small values written inline")
    func externalBinaryData() throws {
        let store = try Self.makeStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let container = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let byName = try photos(context)
            #expect(byName["inline"]?.value(forKey: "data") as? Data == Data("inline bytes".utf8))
            #expect(byName["external"]?.value(forKey: "data") as? Data == Self.fileBytes)
            #expect(byName["missing"]?.value(forKey: "data") == nil)
            // Renaming the external photo must not touch its reference.
            try byName["external"]?.setValue("external renamed", forKey: "name")
            let added = try context.insertNewObject(forEntityName: "Photo")
            try added.setValue("added", forKey: "name")
            try added.setValue(Data([9, 8, 7]), forKey: "data")
            try context.save()
        }
        #expect(container.coordinator.missingExternalDataFiles == [Self.missingName])
        let raw = try Connection(.file(store.url.path))
        #expect(try raw.scalar("SELECT ZDATA FROM ZPHOTO WHERE ZNAME = 'added'") == .blob(Data([1, 9, 8, 7])))
        #expect(try raw.scalar("SELECT ZDATA FROM ZPHOTO WHERE Z_PK = 2")
                == .blob(Data([2]) + Data(Self.externalName.utf8) + Data([0])))
        let check = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model()).newBackgroundContext()
        try check.performAndWait {
            let byName = try photos(check)
            #expect(byName["added"]?.value(forKey: "data") as? Data == Data([9, 8, 7]))
            #expect(byName["external renamed"]?.value(forKey: "data") as? Data == Self.fileBytes)
        }
    }

    @Test("Transformables through the registered transformer; UUID blobs and dates decoded")
    func transformablesAndUUIDs() throws {
        let store = try Self.makeStore()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let context = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model()).newBackgroundContext()
        try context.performAndWait {
            let photo = try #require(try photos(context)["inline"])
            #expect(photo.value(forKey: "tags") as? [String] == ["a", "b"])
            // The stored bytes are kept as they are.
            #expect(photo.attributeValue(at: 3) == .data(try JSONEncoder().encode(["a", "b"])))
            #expect(photo.value(forKey: "uuid") as? UUID == Self.identifier)
            #expect(photo.value(forKey: "stamp") as? Date == Date(timeIntervalSinceReferenceDate: 100))
        }
    }

    @Test("A trigger calling NSCoreDataNow() still accepts writes")
    func nowTriggerAcceptsWrites() throws {
        let store = try Self.makeStore(trigger: """
            CREATE TRIGGER Z_DA_ZPHOTO_PHOTO_stamp_UPDATE AFTER UPDATE OF ZNAME ON ZPHOTO FOR EACH ROW
            BEGIN UPDATE ZPHOTO SET ZSTAMP = NSCoreDataNow() WHERE Z_PK = NEW.Z_PK; END
            """)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let inspection = try CoreDataStore.inspect(url: store.url, model: Self.model().checked())
        #expect(inspection.triggerFunctions == ["NSCoreDataNow": ["Z_DA_ZPHOTO_PHOTO_stamp_UPDATE"]])
        #expect(inspection.refusedFunctions.isEmpty)
        let before = Date().timeIntervalSinceReferenceDate
        let context = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model()).newBackgroundContext()
        try context.performAndWait {
            try photos(context)["inline"]?.setValue("renamed", forKey: "name")
            try context.save()
        }
        let raw = try Connection(.file(store.url.path))
        guard case .real(let stamp)? = try raw.scalar("SELECT ZSTAMP FROM ZPHOTO WHERE Z_PK = 1") else {
            Issue.record("ZSTAMP was not set by the trigger")
            return
        }
        #expect(stamp >= before - 1)
    }

    @Test("A derived-attribute trigger reporting its new value (NSCoreDataDATrigger…AffectedObjectValue) accepts writes")
    func derivedValueReportAcceptsWrites() throws {
        let store = try Self.makeStore(trigger: """
            CREATE TRIGGER Z_DA_ZPHOTO_PHOTO_stamp_UPDATE AFTER UPDATE OF ZNAME ON ZPHOTO FOR EACH ROW
            BEGIN UPDATE ZPHOTO SET ZSTAMP = 42 WHERE Z_PK = NEW.Z_PK;
            SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZPHOTO', Z_ENT, Z_PK, 'stamp', ZSTAMP) FROM ZPHOTO WHERE Z_PK = NEW.Z_PK;
            SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZPHOTO', Z_ENT, Z_PK, 'stamp', ZSTAMP) FROM ZPHOTO WHERE Z_PK = NEW.Z_PK; END
            """)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let inspection = try CoreDataStore.inspect(url: store.url, model: Self.model().checked())
        #expect(inspection.refusedFunctions.isEmpty)
        let context = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model()).newBackgroundContext()
        try context.performAndWait {
            try photos(context)["inline"]?.setValue("renamed", forKey: "name")
            try context.save()
        }
        let raw = try Connection(.file(store.url.path))
        #expect(try raw.scalar("SELECT ZSTAMP FROM ZPHOTO WHERE Z_PK = 1") == .integer(42))
        #expect(try raw.scalar("SELECT ZNAME FROM ZPHOTO WHERE Z_PK = 1") == .text("renamed"))
    }

    @Test("A trigger calling an unimplemented Core Data function refuses the write, store unchanged")
    func unknownFunctionRefusesWrite() throws {
        let store = try Self.makeStore(trigger: """
            CREATE TRIGGER Z_DA_ZPHOTO_PHOTO_name_UPDATE AFTER UPDATE OF ZNAME ON ZPHOTO FOR EACH ROW
            BEGIN SELECT NSCoreDataTriggerUndocumented('ZPHOTO', NEW.Z_PK, 'NSCoreDataNow('); END
            """)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let container = try PersistentContainer(coreDataStoreAt: store.url, model: Self.model())
        let context = container.newBackgroundContext()
        let error = try context.performAndWait { () throws -> (any Error)? in
            try photos(context)["inline"]?.setValue("renamed", forKey: "name")
            do { try context.save() } catch { return error }
            return nil
        }
        let message = String(describing: try #require(error, "the write was not refused"))
        #expect(message.contains("NSCoreDataTriggerUndocumented")
                && message.contains("Z_DA_ZPHOTO_PHOTO_name_UPDATE"), "\(message)")
        let raw = try Connection(.file(store.url.path))
        #expect(try raw.scalar("SELECT ZNAME FROM ZPHOTO WHERE Z_PK = 1") == .text("inline"))
        #expect(try raw.scalar("SELECT Z_OPT FROM ZPHOTO WHERE Z_PK = 1") == .integer(1))
        #expect(try raw.scalar("PRAGMA integrity_check") == .text("ok"))
    }
}
