import Foundation
import Testing
@testable import Faultline

/// Attribute values live in windows on storage shared by the rows of one
/// statement: a write through an object never reaches another object's, a
/// snapshot's or the cache's values, and a row kept alone keeps only a bounded
/// amount of the other rows' text alive.
@Suite("Row values shared by a statement's rows: copy on write, bounded retention")
struct RowValuesSharingTests {
    private func seed(_ container: PersistentContainer, books: Int) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<books {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("Book \(index)", forKey: "title")
                try book.setValue(Int64(index), forKey: "pages")
            }
            try context.save()
        }
        container.coordinator.rowCache.removeAll()
    }

    private func sorted(_ context: ManagedObjectContext) throws -> [ManagedObject] {
        var request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [FetchSortDescriptor(key: "pages")]
        request.returnsObjectsAsFaults = false
        return try context.fetch(request)
    }

    @Test("A write to one fetched object leaves its neighbours, its committed row, the cache and other contexts alone")
    func fetchedWrites() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        try seed(container, books: 20)
        let a = container.newBackgroundContext()
        let b = container.newBackgroundContext()
        try a.performAndWait {
            let books = try sorted(a)
            for (index, book) in books.enumerated() {
                try book.setValue("changed \(index)", forKey: "title")
                try book.setValue(Int64(1000 + index), forKey: "pages")
            }
            for (index, book) in books.enumerated() {
                #expect(book.value(forKey: "title") as? String == "changed \(index)")
                #expect(book.committedValues(forKeys: ["title"])["title"] as? String == "Book \(index)")
                let cached = container.coordinator.rowCache.snapshot(for: book.objectID)
                #expect(cached.map { Array($0.values) } == book.committed.map { Array($0.values) })
                #expect(cached?.values[book.runtime.entity.attributes.firstIndex { $0.name == "pages" }!] == .integer(Int64(index)))
            }
        }
        try b.performAndWait {
            let books = try sorted(b)
            for (index, book) in books.enumerated() {
                #expect(book.value(forKey: "title") as? String == "Book \(index)")
            }
        }
        try a.performAndWait {
            a.rollback()
            for (index, book) in try sorted(a).enumerated() {
                #expect(book.value(forKey: "title") as? String == "Book \(index)")
                #expect(book.value(forKey: "pages") as? Int64 == Int64(index))
            }
        }
    }

    @Test("Inserted objects share the entity's defaults until written; a write never reaches the defaults")
    func defaultsAreCopied() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let first = try context.insertNewObject(forEntityName: "Book")
            let second = try context.insertNewObject(forEntityName: "Book")
            try first.setValue(Int64(7), forKey: "pages")
            try first.setValue("First", forKey: "title")
            #expect(second.value(forKey: "pages") as? Int64 == 0)
            #expect(second.value(forKey: "title") == nil)
            let runtime = EntityRuntimes.of(container.coordinator)[first.entityIndex]
            #expect(Array(runtime.defaults) == Array(second.values))
            let third = try context.insertNewObject(forEntityName: "Book")
            #expect(third.value(forKey: "pages") as? Int64 == 0)
            try second.setValue("Second", forKey: "title")
            try third.setValue("Third", forKey: "title")
            try context.save()
            // Written after the save: the cache's inserted rows keep the saved values.
            try first.setValue(Int64(8), forKey: "pages")
            let cached = container.coordinator.rowCache.snapshot(for: first.objectID)
            #expect(cached?.values.contains(.integer(7)) == true)
            #expect(first.committedValues(forKeys: ["pages"])["pages"] as? Int64 == 7)
        }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let pages = try other.fetch(FetchRequest(entityName: "Book")).compactMap { $0.value(forKey: "pages") as? Int64 }
            #expect(pages.sorted() == [0, 0, 7])
        }
    }

    @Test("Contexts on four threads write the same cached rows; the cache's snapshots never change")
    func concurrentWriters() async throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        try seed(container, books: 200)
        // Fill the cache from one statement: every row's values share chunks.
        let filler = container.newBackgroundContext()
        try filler.performAndWait { _ = try sorted(filler) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let context = container.newBackgroundContext()
                    try context.performAndWait {
                        for round in 0..<20 {
                            let books = try context.fetch(FetchRequest(entityName: "Book"))
                            for book in books { _ = book.value(forKey: "title") }
                            for book in books { try book.setValue("w\(worker) r\(round)", forKey: "title") }
                            context.rollback()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let check = container.newBackgroundContext()
        try check.performAndWait {
            for (index, book) in try sorted(check).enumerated() {
                #expect(book.value(forKey: "title") as? String == "Book \(index)")
            }
        }
    }

    /// The values a kept row's storage holds alive: every slot its chunk initialised.
    private func liveValues(sharedWith values: AttributeValues) -> [AttributeValue] {
        let chunk = Mirror(reflecting: values).children.first { $0.label == "chunk" }?.value as? RowChunk<AttributeValue>
        return chunk?.withUnsafeMutablePointers { header, slots in (0..<header.pointee.used).map { slots[$0] } } ?? []
    }

    /// Saves `count` books titled "<index> <padding>" and returns the snapshot
    /// of the row at `keptIndex` from one statement reading them all, every
    /// other row released.
    private func keptRow(titlePadding: Int, count: Int, keptIndex: Int) throws -> RowSnapshot {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let padding = String(repeating: "x", count: titlePadding)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<count {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("\(index) \(padding)", forKey: "title")
            }
            try context.save()
            context.reset()
        }
        container.coordinator.rowCache.removeAll()
        let rows = try container.coordinator.fetchRows(container.coordinator.compile(StoreFetch(entityIndex: 1)))
        container.coordinator.rowCache.removeAll()
        return Array(rows)[keptIndex].1
    }

    private func titleBytes(_ values: [AttributeValue]) -> Int {
        values.reduce(0) { total, value in
            if case .string(let text) = value { total + text.utf8.count } else { total }
        }
    }

    @Test("A row of text larger than the payload budget kept alone keeps no other row's text alive")
    func largeRowsKeptAlone() throws {
        let padding = RowArena<AttributeValue>.payloadBudget + 1
        let kept = try keptRow(titlePadding: padding, count: 150, keptIndex: 100)
        let live = liveValues(sharedWith: kept.values)
        #expect(live.count == kept.values.count)
        #expect(titleBytes(live) == titleBytes(Array(kept.values)))
    }

    @Test("Rows of short text share storage; a kept one holds at most the payload budget of the others' text")
    func smallRowsShareWithinBudget() throws {
        let kept = try keptRow(titlePadding: 500, count: 1_000, keptIndex: 700)
        let live = liveValues(sharedWith: kept.values)
        let others = titleBytes(live) - titleBytes(Array(kept.values))
        #expect(live.count > 10 * kept.values.count)
        #expect(others > 0 && others <= RowArena<AttributeValue>.payloadBudget)
    }
}
