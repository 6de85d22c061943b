import Foundation
import FaultlineSQLite
import Testing
@testable import Faultline

/// `fetchLimit` and `fetchOffset` count the objects a fetch returns with the
/// context's unsaved changes (and a child's ancestors') laid over the store's
/// rows: an unsaved insert takes its place in the window, a deleted or changed
/// object leaves it — for `fetch(_:)`, `fetchObjectIDs(_:)` and `count(for:)`.
@Suite("fetchLimit and fetchOffset with unsaved changes")
struct PendingChangeWindowTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel { Entity("Book") { Attribute("pages", .integer64) } }
    }

    /// The window pairs (limit, offset) tried, 0 meaning none.
    static let windows = [(3, 0), (3, 2), (0, 5), (4, 8), (2, 10), (0, 11), (1, 12), (0, 0)]

    /// Ten saved books of 1 to 10 pages; then, unsaved in `context`: books of
    /// 0 and 11 pages inserted, the 3-page one deleted, the 1-page one now 100.
    static func changes(in context: ManagedObjectContext) throws {
        for pages in [0, 11] { try context.insertNewObject(forEntityName: "Book").setValue(pages, forKey: "pages") }
        let stored = try context.fetch(FetchRequest(entityName: "Book", format: "pages IN {1, 3}"))
        for book in stored {
            if book.value(forKey: "pages") as? Int64 == 3 { context.delete(book) } else { try book.setValue(100, forKey: "pages") }
        }
    }

    static let expected: [Int64] = [0, 2, 4, 5, 6, 7, 8, 9, 10, 11, 100]

    static func container() throws -> (PersistentContainer, URL) {
        let (container, url) = try LibraryModel.container(model())
        let setUp = container.newBackgroundContext()
        try setUp.performAndWait {
            for pages in 1...10 { try setUp.insertNewObject(forEntityName: "Book").setValue(pages, forKey: "pages") }
            try setUp.save()
        }
        return (container, url)
    }

    static func request(limit: Int, offset: Int, batchSize: Int = 0, format: String? = nil) throws -> FetchRequest {
        var request = try format.map { try FetchRequest(entityName: "Book", format: $0) } ?? FetchRequest(entityName: "Book")
        request.sortDescriptors = [FetchSortDescriptor(key: "pages")]
        request.fetchLimit = limit
        request.fetchOffset = offset
        request.fetchBatchSize = batchSize
        return request
    }

    static func window(_ all: [Int64], limit: Int, offset: Int) -> [Int64] {
        let rest = Array(all.dropFirst(offset))
        return limit > 0 ? Array(rest.prefix(limit)) : rest
    }

    static func expectWindows(in context: ManagedObjectContext, expected: [Int64], batchSize: Int = 0) throws {
        func pages(_ objects: [ManagedObject]) -> [Int64] { objects.compactMap { $0.value(forKey: "pages") as? Int64 } }
        for (limit, offset) in windows {
            let request = try request(limit: limit, offset: offset, batchSize: batchSize)
            let want = window(expected, limit: limit, offset: offset)
            #expect(pages(try context.fetch(request)) == want, "limit \(limit), offset \(offset)")
            let ids = try context.fetchObjectIDs(request)
            #expect(pages(try ids.map { try context.existingObject(with: $0) }) == want, "IDs: limit \(limit), offset \(offset)")
            #expect(try context.count(for: request) == want.count, "count: limit \(limit), offset \(offset)")
        }
    }

    @Test("Each window over the context's own unsaved changes", arguments: [0, 2])
    func ownChanges(batchSize: Int) throws {
        let (container, url) = try Self.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try Self.changes(in: context)
            try Self.expectWindows(in: context, expected: Self.expected, batchSize: batchSize)
        }
    }

    @Test("With a predicate, the window is filled past the objects that left it")
    func predicate() throws {
        let (container, url) = try Self.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try Self.changes(in: context)
            let request = try Self.request(limit: 3, offset: 0, format: "pages < 6")
            let (result, statements) = try StatementLog.record { try context.fetch(request) }
            #expect(result.compactMap { $0.value(forKey: "pages") as? Int64 } == [0, 2, 4])
            // From the first row, the window's end plus the two stored books that may leave it.
            #expect(statements.contains { $0.hasPrefix("SELECT") && $0.hasSuffix("LIMIT 5 OFFSET 0") }, "\(statements)")
        }
    }

    @Test("A child's window over its parent's unsaved changes")
    func ancestors() throws {
        let (container, url) = try Self.container()
        defer { LibraryModel.remove(url) }
        let parent = container.newBackgroundContext()
        try parent.performAndWait {
            try Self.changes(in: parent)
            let child = parent.newChildContext()
            try child.performAndWait { try Self.expectWindows(in: child, expected: Self.expected) }
        }
    }

    @Test("A fetched-results controller started over unsaved changes holds the same window", arguments: [(5, 0, 0), (5, 0, 2), (0, 3, 2), (4, 2, 2)])
    func controller(limit: Int, offset: Int, batchSize: Int) throws {
        let (container, url) = try Self.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try Self.changes(in: context)
            let request = try Self.request(limit: limit, offset: offset, batchSize: batchSize)
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
            try controller.performFetch()
            let held = controller.fetchedObjects.map { $0.map { $0.value(forKey: "pages") as? Int64 } } ?? []
            #expect(held == Self.window(Self.expected, limit: limit, offset: offset))
        }
    }

    @Test("Without unsaved changes the store's LIMIT and OFFSET serve alone")
    func storeWindow() throws {
        let (container, url) = try Self.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let request = try Self.request(limit: 3, offset: 2)
            let (result, statements) = try StatementLog.record { try context.fetch(request) }
            #expect(result.compactMap { $0.value(forKey: "pages") as? Int64 } == [3, 4, 5])
            #expect(statements.contains { $0.hasPrefix("SELECT") && $0.hasSuffix("LIMIT 3 OFFSET 2") }, "\(statements)")
        }
    }

    @Test("count(for:) leaves out pending deletions, whether or not the fetch includes pending changes", arguments: [true, false])
    func countWithDeletions(includesPendingChanges: Bool) throws {
        let (container, url) = try Self.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for book in try context.fetch(FetchRequest(entityName: "Book", format: "pages <= 2")) { context.delete(book) }
            var request = FetchRequest(entityName: "Book")
            request.includesPendingChanges = includesPendingChanges
            #expect(try context.count(for: request) == 8)
            #expect(try context.fetch(request).count == 8)
            request.fetchLimit = 9
            #expect(try context.count(for: request) == 8)
        }
        let afterRules = try context.performAndWait { try context.count(for: FetchRequest(entityName: "Book")) }
        #expect(afterRules == 8)
    }

    @Test("A negative offset or limit is refused with a typed error, with or without unsaved changes, by every kind of fetch")
    func negativeWindow() throws {
        let (container, _) = try Self.container()
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            for (limit, offset) in [(3, -2), (-1, 0)] {
                var request = try Self.request(limit: limit, offset: offset)
                for pending in [false, true] {
                    if pending { _ = try context.insertNewObject(forEntityName: "Book") }
                    let expected = FetchError.negativeFetchWindow(offset: offset, limit: limit)
                    #expect(throws: expected) { try context.fetch(request) }
                    #expect(throws: expected) { try context.fetchObjectIDs(request) }
                    #expect(throws: expected) { try context.count(for: request) }
                    request.resultType = .dictionaries
                    #expect(throws: expected) { try context.execute(request) }
                    request.resultType = .managedObjects
                }
                context.rollback()
            }
        }
    }
}
