import Foundation
import Testing
@testable import Faultline

/// `relationshipKeyPathsForPrefetching` costs one statement per key path level
/// whatever the number of parents, and touching what it read costs none.
@Suite("Prefetching relationship key paths: one statement per level, then no faults")
struct PrefetchingTests {
    /// `authors` authors with `books` books each and `chapters` chapters per book.
    private func populated(authors: Int, books: Int, chapters: Int) throws -> (PersistentContainer, URL) {
        let (container, url) = try LibraryModel.container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let publisher = try context.insertNewObject(forEntityName: "Publisher")
            try publisher.setValue("Orbit", forKey: "name")
            for index in 0..<authors {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue(String(format: "Author %05d", index), forKey: "name")
                try author.setValue(publisher, forKey: "publisher")
                for number in 0..<books {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue("Book \(index)-\(number)", forKey: "title")
                    try book.setValue(author, forKey: "author")
                    for page in 0..<chapters {
                        let chapter = try context.insertNewObject(forEntityName: "Chapter")
                        try chapter.setValue("Chapter \(page)", forKey: "title")
                        try chapter.setValue(book, forKey: "book")
                    }
                }
            }
            try context.save()
        }
        container.coordinator.rowCache.removeAll()
        return (container, url)
    }

    private func statements(_ container: PersistentContainer) -> Int { container.coordinator.sqlCounters.statementsExecuted }

    @Test("1,000 authors × 100 books: prefetching books takes exactly 2 statements, touching every title 0; without it 1,001")
    func books() throws {
        let (container, url) = try populated(authors: 1_000, books: 100, chapters: 0)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            container.coordinator.resetCounters()
            var request = FetchRequest(entityName: "Author")
            request.relationshipKeyPathsForPrefetching = ["books"]
            let authors = try context.fetch(request)
            #expect(authors.count == 1_000)
            #expect(statements(container) == 2)
            var titles = 0
            for author in authors {
                for book in try #require(author.value(forKey: "books") as? [ManagedObject]) where book.value(forKey: "title") is String {
                    titles += 1
                }
            }
            #expect(titles == 100_000)
            #expect(statements(container) == 2)
            #expect(context.counters.faultsFired == 0)
            #expect(context.counters.relationshipFaultsFired == 0)
        }
        container.coordinator.rowCache.removeAll()
        let plain = container.newBackgroundContext()
        try plain.performAndWait {
            container.coordinator.resetCounters()
            // Materialised up front: as faults, authors whose rows the 100,000-row
            // cache evicted while the books streamed through would cost a fault each.
            var request = FetchRequest(entityName: "Author")
            request.returnsObjectsAsFaults = false
            let authors = try plain.fetch(request)
            for author in authors {
                for book in try #require(author.value(forKey: "books") as? [ManagedObject]) { _ = book.value(forKey: "title") }
            }
            // One fetch, then one statement per author's books (which reads the books' rows in full).
            #expect(statements(container) == 1_001)
        }
    }

    @Test("books and books.chapters take exactly 3 statements; publisher (to-one) one more; nothing fires afterwards")
    func nested() throws {
        let (container, url) = try populated(authors: 200, books: 10, chapters: 3)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            container.coordinator.resetCounters()
            var request = FetchRequest(entityName: "Author")
            request.relationshipKeyPathsForPrefetching = ["books", "books.chapters"]
            let authors = try context.fetch(request)
            #expect(statements(container) == 3)
            var chapters = 0
            for author in authors {
                for book in author.value(forKey: "books") as? [ManagedObject] ?? [] {
                    chapters += (book.value(forKey: "chapters") as? [ManagedObject] ?? []).filter { $0.value(forKey: "title") != nil }.count
                    #expect(book.value(forKey: "author") as? ManagedObject === author)
                }
            }
            #expect(chapters == 6_000)
            #expect(statements(container) == 3)
            #expect(context.counters.faultsFired == 0)
        }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            container.coordinator.resetCounters()
            var request = FetchRequest(entityName: "Author")
            request.relationshipKeyPathsForPrefetching = ["publisher", "books"]
            let authors = try other.fetch(request)
            #expect(statements(container) == 3)
            for author in authors { _ = (author.value(forKey: "publisher") as? ManagedObject)?.value(forKey: "name") }
            #expect(statements(container) == 3)
            #expect(other.counters.faultsFired == 0)
        }
    }

    @Test("From an entity without to-many relationships, book and book.author (to-ones) take exactly 3 statements")
    func toOneFromEntityWithoutToMany() throws {
        let (container, url) = try populated(authors: 50, books: 4, chapters: 5)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            container.coordinator.resetCounters()
            var request = FetchRequest(entityName: "Chapter")
            request.relationshipKeyPathsForPrefetching = ["book", "book.author"]
            let chapters = try context.fetch(request)
            #expect(chapters.count == 1_000)
            #expect(statements(container) == 3)
            var names = Set<String>()
            for chapter in chapters {
                let book = chapter.value(forKey: "book") as? ManagedObject
                _ = book?.value(forKey: "title")
                if let name = (book?.value(forKey: "author") as? ManagedObject)?.value(forKey: "name") as? String {
                    names.insert(name)
                }
            }
            #expect(names.count == 50)
            #expect(statements(container) == 3)
            #expect(context.counters.faultsFired == 0)
        }
    }

    @Test("With fetchBatchSize, each batch prefetches when it fires: 200 authors in batches of 50 take 1 + 4 × 2 statements")
    func batched() throws {
        let (container, url) = try populated(authors: 200, books: 5, chapters: 0)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            container.coordinator.resetCounters()
            var request = FetchRequest(entityName: "Author")
            request.fetchBatchSize = 50
            request.relationshipKeyPathsForPrefetching = ["books"]
            let authors = try context.fetch(request)
            #expect(statements(container) == 1)
            var titles = 0
            for author in authors {
                _ = author.value(forKey: "name")
                titles += (author.value(forKey: "books") as? [ManagedObject] ?? []).filter { $0.value(forKey: "title") != nil }.count
            }
            #expect(titles == 1_000)
            #expect(statements(container) == 1 + 4 * 2)
            #expect(context.counters.relationshipFaultsFired == 0)
            var unknown = FetchRequest(entityName: "Author")
            unknown.fetchBatchSize = 50
            unknown.relationshipKeyPathsForPrefetching = ["books.pages"]
            #expect(throws: FetchError.unknownKeyPath(entity: "Book", keyPath: "pages")) { try context.fetch(unknown) }
        }
    }

    @Test("Shelves sharing books: shelves.books.chapters gives every shared book its chapters, in 3 statements")
    func manyToManySharedMembers() throws {
        let (container, url) = try populated(authors: 4, books: 3, chapters: 2)
        defer { LibraryModel.remove(url) }
        let setUp = container.newBackgroundContext()
        // Each shelf's books, by ID: the rows of one shelf arrive interleaved
        // with the others', and each must land under its own shelf.
        let expected = try setUp.performAndWait { () throws -> [ManagedObjectID: Set<ManagedObjectID>] in
            let books = try setUp.fetch(FetchRequest(entityName: "Book"))
            // Every book on two of three shelves: each book is a destination twice.
            var shelves: [(ManagedObject, [ManagedObject])] = []
            for number in 0..<3 {
                let shelf = try setUp.insertNewObject(forEntityName: "Shelf")
                let placed = books.enumerated().filter { $0.offset % 3 != number }.map(\.element)
                for book in placed { try shelf.addObject(book, toRelationship: "books") }
                shelves.append((shelf, placed))
            }
            try setUp.save()
            return Dictionary(uniqueKeysWithValues: shelves.map { ($0.0.objectID, Set($0.1.map(\.objectID))) })
        }
        container.coordinator.rowCache.removeAll()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            container.coordinator.resetCounters()
            var request = FetchRequest(entityName: "Shelf")
            request.relationshipKeyPathsForPrefetching = ["books", "books.chapters"]
            let shelves = try context.fetch(request)
            #expect(statements(container) == 3)
            var placements = 0
            for shelf in shelves {
                let books = shelf.value(forKey: "books") as? [ManagedObject] ?? []
                #expect(Set(books.map(\.objectID)) == expected[shelf.objectID])
                for book in books {
                    placements += 1
                    #expect((book.value(forKey: "chapters") as? [ManagedObject])?.count == 2)
                }
            }
            #expect(placements == 24)
            #expect(statements(container) == 3)
            #expect(context.counters.relationshipFaultsFired == 0)
        }
    }

    @Test("A book moved to another author in memory is not prefetched back under its stored author")
    func movedMember() throws {
        let (container, url) = try populated(authors: 2, books: 2, chapters: 0)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var byName = FetchRequest(entityName: "Author")
            byName.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let authors = try context.fetch(byName)
            let titled = try FetchRequest(entityName: "Book", format: "title == %@", "Book 0-0")
            let moved = try #require(try context.fetch(titled).first)
            try moved.setValue(authors[1], forKey: "author")
            var request = FetchRequest(entityName: "Author")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            request.relationshipKeyPathsForPrefetching = ["books"]
            let prefetched = try context.fetch(request)
            let first = prefetched[0].value(forKey: "books") as? [ManagedObject] ?? []
            let second = prefetched[1].value(forKey: "books") as? [ManagedObject] ?? []
            #expect(first.count == 1)
            #expect(!first.contains { $0 === moved })
            #expect(second.count == 3)
            #expect(second.contains { $0 === moved })
        }
    }

    @Test("An unknown prefetch key path is a typed error")
    func unknownKeyPath() throws {
        let (container, url) = try populated(authors: 2, books: 1, chapters: 0)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.performAndWait {
            var request = FetchRequest(entityName: "Author")
            request.relationshipKeyPathsForPrefetching = ["novels"]
            #expect(throws: FetchError.unknownKeyPath(entity: "Author", keyPath: "novels")) { try context.fetch(request) }
        }
    }

    @Test("Every step of a prefetch key path is checked before the fetch runs, batched or not, whole or as IDs",
          arguments: [("books.nope", "Book", "nope"), ("books.title", "Book", "title"), ("", "Author", ""),
                      ("books.", "Book", "books."), ("books..chapters", "Book", "books..chapters")])
    func everyStepChecked(path: String, entity: String, step: String) throws {
        let (container, url) = try populated(authors: 2, books: 1, chapters: 0)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.performAndWait {
            for (batchSize, propertyValues) in [(0, true), (5, true), (0, false)] {
                var request = FetchRequest(entityName: "Author")
                request.relationshipKeyPathsForPrefetching = ["books", path]
                request.fetchBatchSize = batchSize
                request.includesPropertyValues = propertyValues
                #expect(throws: FetchError.unknownKeyPath(entity: entity, keyPath: step), "batch \(batchSize)") {
                    try context.fetch(request)
                }
            }
        }
    }
}
