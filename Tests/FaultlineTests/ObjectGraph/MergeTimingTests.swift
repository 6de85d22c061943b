import Foundation
import Testing
@testable import Faultline

/// Automatic merges apply between a context's blocks, as Core Data runs its
/// merge blocks on the queue, never inside one: a save, fetch, count or
/// nested `performAndWait` in the middle of a block does not lay another
/// context's newer row under the block's unsaved change, so the block's save
/// reports the conflict instead of overwriting the other save unreported.
@Suite("Automatic merges apply between blocks, so a save in a block reports a conflict instead of losing the other save")
struct MergeTimingTests {
    /// A saved book whose pages the tests count up; its ID.
    static func savedBook(_ container: PersistentContainer) throws -> ManagedObjectID {
        let seed = container.newBackgroundContext()
        return try seed.performAndWait {
            let book = try seed.insertNewObject(forEntityName: "Book")
            try book.setValuesForKeys(["title": "Counter", "pages": Int64(0)])
            try seed.save()
            return book.objectID
        }
    }

    static func storedPages(_ container: PersistentContainer, _ id: ManagedObjectID) throws -> Int64? {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait { try reader.existingObject(with: id).value(forKey: "pages") as? Int64 }
    }

    @Test("Another context's save during the block: fetch, count, nested performAndWait and save merge nothing, and the save throws the conflict")
    func conflictReported() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let id = try Self.savedBook(container)
        let a = container.newBackgroundContext()
        a.automaticallyMergesChangesFromParent = true
        let b = container.newBackgroundContext()
        try a.performAndWait {
            let book = try a.existingObject(with: id)
            try book.setValue(Int64(1), forKey: "pages")
            try b.performAndWait {
                try b.existingObject(with: id).setValue(Int64(100), forKey: "pages")
                try b.save()
            }
            _ = try a.fetch(FetchRequest(entityName: "Book"))
            _ = try a.count(for: FetchRequest(entityName: "Book"))
            a.performAndWait {}
            #expect(book.value(forKey: "pages") as? Int64 == 1)
            #expect(throws: SaveError.self) { try a.save() }
            a.rollback()
        }
        #expect(try Self.storedPages(container, id) == 100)
    }

    @Test("The next block starts with the other save merged: the object holds its value and a change saved over it wins no conflict")
    func mergedAtTheNextBlock() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let id = try Self.savedBook(container)
        let a = container.newBackgroundContext()
        a.automaticallyMergesChangesFromParent = true
        let book = try a.performAndWait { () throws -> ManagedObject in
            let book = try a.existingObject(with: id)
            _ = book.value(forKey: "pages")
            return book
        }
        let b = container.newBackgroundContext()
        try b.performAndWait {
            try b.existingObject(with: id).setValue(Int64(100), forKey: "pages")
            try b.save()
        }
        let pages = try a.performAndWait { () throws -> Int64? in
            let merged = book.value(forKey: "pages") as? Int64
            try book.setValue((merged ?? 0) + 1, forKey: "pages")
            try a.save()
            return merged
        }
        #expect(pages == 100)
        #expect(try Self.storedPages(container, id) == 101)
    }
}
