import FaultlineSQLite
import Foundation
import Testing
@testable import Faultline

/// Copying an open store (`copyStore(to:)`, Core Data's
/// `replacePersistentStore`) gives one snapshot of its committed data, WAL
/// included, that opens as the same store; destroying one
/// (`destroyPersistentStore(at:)`) removes every file of it, and both refuse
/// what would break a live coordinator or delete a file that is not a store.
@Suite("Copying and destroying stores")
struct StoreFilesTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func insertAuthors(_ names: [String], into container: PersistentContainer) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in names { try context.insertNewObject(forEntityName: "Author").setValue(name, forKey: "name") }
            try context.save()
        }
    }

    static func authorNames(at url: URL) throws -> [String] {
        let container = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            try context.fetch(FetchRequest(entityName: "Author")).compactMap { $0.value(forKey: "name") as? String }.sorted()
        }
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test("A copy taken while committed rows are still in the -wal holds them and opens as the same store")
    func copyIncludesTheWAL() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Live.sqlite"), copy = directory.appendingPathComponent("Backup.sqlite")
        let container = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        try Self.insertAuthors(["Ursula", "Octavia"], into: container)
        #expect(Self.size(url.path + "-wal") > 0, "the rows are still in the -wal")
        try container.copyStore(to: copy)
        #expect(!FileManager.default.fileExists(atPath: copy.path + "-wal"), "the copy stands alone")
        #expect(try Self.authorNames(at: copy) == ["Octavia", "Ursula"])
        let copied = try PersistentStoreCoordinator(model: LibraryModel.model().checked(), location: .file(copy))
        #expect(copied.storeUUID == container.coordinator.storeUUID, "the copy is the same store, as Core Data's file copy")
    }

    @Test("A copy taken during another connection's uncommitted write does not hold it")
    func copyHoldsOnlyCommittedData() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Live.sqlite"), copy = directory.appendingPathComponent("Backup.sqlite")
        let container = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        try Self.insertAuthors(["Ursula"], into: container)
        let other = try Connection(.file(url.path))
        try other.execute("BEGIN IMMEDIATE")
        try other.execute("UPDATE ZAUTHOR SET ZNAME = 'Uncommitted'")
        try container.copyStore(to: copy)
        try other.execute("COMMIT")
        #expect(try Self.authorNames(at: copy) == ["Ursula"])
        #expect(try Self.authorNames(at: url) == ["Uncommitted"], "the write did commit afterwards")
    }

    @Test("A copy replaces the destination store, its stale -wal and its support folder with the source's")
    func copyReplacesTheDestination() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Live.sqlite"), copy = directory.appendingPathComponent("Backup.sqlite")
        do {
            let old = try PersistentContainer(model: LibraryModel.model(), location: .file(copy))
            try Self.insertAuthors(["Stale"], into: old)
        }
        let staleWAL = Data("not this store's log".utf8)
        try #require(FileManager.default.createFile(atPath: copy.path + "-wal", contents: staleWAL))
        let external = { (store: URL) in
            PersistentStoreCoordinator.supportDirectory(forStoreAt: store).appendingPathComponent("_EXTERNAL_DATA")
        }
        for (store, file) in [(url, "blob"), (copy, "stale")] {
            try FileManager.default.createDirectory(at: external(store), withIntermediateDirectories: true)
            try #require(FileManager.default.createFile(atPath: external(store).appendingPathComponent(file).path, contents: Data([7])))
        }
        let container = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        try Self.insertAuthors(["Ursula"], into: container)
        try container.copyStore(to: copy)
        #expect(!FileManager.default.fileExists(atPath: copy.path + "-wal"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: external(copy).path) == ["blob"])
        #expect(try Self.authorNames(at: copy) == ["Ursula"])
    }

    @Test("Copying onto the store itself, or onto a store open in this process, is refused and changes nothing")
    func copyRefusals() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Live.sqlite"), other = directory.appendingPathComponent("Other.sqlite")
        let container = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        try Self.insertAuthors(["Ursula"], into: container)
        #expect(throws: StoreError.copyOntoItself(path: url.path)) { try container.copyStore(to: url) }
        let spelledOtherwise = directory.appendingPathComponent("./sub/../Live.sqlite")
        #expect(throws: StoreError.copyOntoItself(path: spelledOtherwise.path)) { try container.copyStore(to: spelledOtherwise) }
        let open = try PersistentContainer(model: LibraryModel.model(), location: .file(other))
        try Self.insertAuthors(["Octavia"], into: open)
        #expect(throws: StoreError.storeInUse(path: other.path)) { try container.copyStore(to: other) }
        let context = open.newBackgroundContext()
        let names = try context.performAndWait {
            try context.fetch(FetchRequest(entityName: "Author")).compactMap { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["Octavia"])
        #expect(try Self.authorNames(at: url) == ["Ursula"])
    }

    @Test("Destroying a closed store removes its file, -wal, -shm, -journal and support folder")
    func destroyRemovesEveryFile() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Gone.sqlite")
        do {
            let container = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
            try Self.insertAuthors(["Ursula"], into: container)
        }
        for suffix in ["-wal", "-shm", "-journal"] { try #require(FileManager.default.createFile(atPath: url.path + suffix, contents: Data([1]))) }
        let external = PersistentStoreCoordinator.supportDirectory(forStoreAt: url).appendingPathComponent("_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try #require(FileManager.default.createFile(atPath: external.appendingPathComponent("blob").path, contents: Data([2])))
        let neighbour = directory.appendingPathComponent("Gone.sqlite.txt")
        try #require(FileManager.default.createFile(atPath: neighbour.path, contents: Data([3])))
        try PersistentStoreCoordinator.destroyPersistentStore(at: url)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["Gone.sqlite.txt"], "only the unrelated neighbour is left")
        try PersistentStoreCoordinator.destroyPersistentStore(at: url)  // nothing left to destroy: no error
    }

    @Test("Destroying a store open in this process, or a file that is not SQLite, is refused and deletes nothing")
    func destroyRefusals() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Open.sqlite"), notes = directory.appendingPathComponent("notes.sqlite")
        let container = try PersistentContainer(model: LibraryModel.model(), location: .file(url))
        try Self.insertAuthors(["Ursula"], into: container)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(throws: StoreError.storeInUse(path: url.path)) { try PersistentStoreCoordinator.destroyPersistentStore(at: url) }
        try #require(FileManager.default.createFile(atPath: notes.path, contents: Data("a text file, not a store".utf8)))
        try #require(FileManager.default.createFile(atPath: notes.path + "-wal", contents: Data([1])))
        #expect(throws: StoreError.notASQLiteFile(path: notes.path)) {
            try PersistentStoreCoordinator.destroyPersistentStore(at: notes)
        }
        #expect(throws: StoreError.notASQLiteFile(path: directory.path)) {
            try PersistentStoreCoordinator.destroyPersistentStore(at: directory)
        }
        let after = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(after == (before + ["notes.sqlite", "notes.sqlite-wal"]).sorted())
        let context = container.newBackgroundContext()
        let count = try context.performAndWait { try context.count(for: FetchRequest(entityName: "Author")) }
        #expect(count == 1)
    }
}
