import Foundation
import Testing
@testable import Faultline

/// A store opened read-only (Core Data's `NSReadOnlyPersistentStoreOption`):
/// reads as any store, refuses every write with a typed error, and leaves the
/// file and its neighbours exactly as they were; it is never created.
@Suite("Stores opened read-only")
struct ReadOnlyStoreTests {
    static func files(_ url: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm", "-journal"] {
            if let data = FileManager.default.contents(atPath: url.path + suffix) { files[suffix] = data }
        }
        return files
    }

    /// A store with one author, closed.
    static func savedStore() throws -> URL {
        let (container, url) = try LibraryModel.container()
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            try writer.insertNewObject(forEntityName: "Author").setValue("Ursula", forKey: "name")
            try writer.save()
        }
        return url
    }

    @Test("Fetches and faults read; a save, a batch insert and a batch delete are refused with openedReadOnly; the files are untouched")
    func readsButNeverWrites() throws {
        let url = try Self.savedStore()
        defer { LibraryModel.remove(url) }
        let before = Self.files(url)
        #expect(before.keys.sorted() == [""], "closed: checkpointed, no -wal")
        let readOnly = try PersistentContainer(model: LibraryModel.model(), location: .file(url), readOnly: true)
        let context = readOnly.newBackgroundContext()
        try context.performAndWait { () throws in
            let author = try #require(try context.fetch(FetchRequest(entityName: "Author")).first)
            #expect(author.value(forKey: "name") as? String == "Ursula")
            try author.setValue("Le Guin", forKey: "name")
            #expect(throws: StoreError.openedReadOnly(path: url.path)) { try context.save() }
            #expect(context.hasChanges, "the refused save loses nothing")
            #expect(throws: StoreError.openedReadOnly(path: url.path)) {
                try context.execute(try BatchInsertRequest(entityName: "Author", in: readOnly.model, objects: [["name": "Cid"]]))
            }
            #expect(throws: StoreError.openedReadOnly(path: url.path)) {
                try context.execute(BatchDeleteRequest(entityName: "Author"))
            }
        }
        #expect(Self.files(url) == before)
    }

    @Test("A missing file, an in-memory store and an empty file are refused, not created")
    func neverCreated() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-readonly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.sqlite")
        let empty = directory.appendingPathComponent("empty.sqlite")
        try #require(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        for location in [StoreLocation.file(missing), .inMemory, .file(empty)] {
            #expect {
                try PersistentContainer(model: LibraryModel.model(), location: location, readOnly: true)
            } throws: { error in
                guard case StoreError.notAStore = error else { return false }
                return true
            }
        }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
        #expect(Self.files(empty) == ["": Data()])
    }
}
