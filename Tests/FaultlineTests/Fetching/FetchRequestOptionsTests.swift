import Foundation
import Testing
@testable import Faultline

/// Sorting, limits, result types, counts and pending changes.
@Suite("Fetch request options: sort keys, result types, counts and pending changes")
struct FetchRequestOptionsTests {
    private func withLibrary(_ body: (PersistentContainer, ManagedObjectContext) throws -> Void) throws {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait { try body(container, context) }
    }

    @Test("Sorting by a to-one key path joins once; case-insensitive sorting uses the canonical column")
    func sorting() throws {
        try withLibrary { _, context in
            var request = try FetchRequest(entityName: "Book", format: "author.name != nil")
            request.sortDescriptors = [FetchSortDescriptor(key: "author.name", ascending: false), FetchSortDescriptor(key: "views")]
            #expect(try context.fetch(request).map(FetchLibraryStore.label) == ["Résumé", "Tea", "Naïve Art", "Café", "CAFE", "café"])
            var folded = FetchRequest(entityName: "Book")
            folded.sortDescriptors = [FetchSortDescriptor(key: "title", caseInsensitive: true), FetchSortDescriptor(key: "views")]
            folded.fetchLimit = 4
            folded.fetchOffset = 1
            #expect(try context.fetch(folded).map(FetchLibraryStore.label) == ["CAFE", "café", "Naïve Art", "Résumé"])
        }
    }

    @Test("count(for:) is one SELECT COUNT with the predicate")
    func count() throws {
        try withLibrary { container, context in
            container.coordinator.resetCounters()
            let count = try context.count(for: try FetchRequest(entityName: "Book", format: "ANY author.books.views > 60"))
            #expect(count == 3)
            #expect(container.coordinator.sqlCounters.statementsExecuted == 1)
        }
    }

    @Test("count(for:) with a fetch limit or offset counts what the fetch returns, over the limited rows")
    func countWithLimitAndOffset() throws {
        try withLibrary { container, context in
            for (limit, offset) in [(0, 0), (4, 0), (4, 1), (4, 3), (0, 2), (2, 10), (0, 6)] {
                var request = FetchRequest(entityName: "Book")
                request.fetchLimit = limit
                request.fetchOffset = offset
                #expect(try context.count(for: request) == (try context.fetch(request).count), "limit \(limit), offset \(offset)")
                // The statement count(for:) runs, from the compiled fetch (the
                // process-wide StatementLog would see other tests' statements).
                let (fetch, _) = try context.compiledFetch(request)
                let limited = limit > 0 || offset > 0
                #expect(fetch.countStatement(in: container.coordinator.plans[fetch.entityIndex]) == (limited
                    ? "SELECT COUNT(*) FROM (SELECT 1 FROM ZBOOK t0 LIMIT \(limit > 0 ? limit : -1) OFFSET \(offset))"
                    : "SELECT COUNT(*) FROM ZBOOK t0"))
            }
            var filtered = try FetchRequest(entityName: "Book", format: "views > 10")
            filtered.fetchOffset = 1
            #expect(try context.count(for: filtered) == 2)
        }
    }

    @Test("Object IDs and dictionaries of key paths, distinct")
    func resultTypes() throws {
        try withLibrary { container, context in
            let ids = try context.fetchObjectIDs(try FetchRequest(entityName: "Book", format: "views > 10"))
            #expect(ids.count == 3)
            var request = FetchRequest(entityName: "Book")
            request.resultType = .dictionaries
            request.propertiesToFetch = ["author.name", "author.publisher.country"]
            request.returnsDistinctResults = true
            request.sortDescriptors = [FetchSortDescriptor(key: "author.name")]
            container.coordinator.resetCounters()
            guard case .dictionaries(let rows) = try context.execute(request) else {
                Issue.record("not dictionaries")
                return
            }
            #expect(container.coordinator.sqlCounters.statementsExecuted == 1)
            #expect(rows.count == 2)
            #expect(rows.first?["author.name"] as? String == "Ana")
            #expect(rows.last?["author.publisher.country"] as? String == "US")
        }
    }

    @Test("The count result type, as Core Data's countResultType: execute gives the count, in one COUNT statement, unsaved inserts counted")
    func countResultType() throws {
        try withLibrary { container, context in
            var request = try FetchRequest(entityName: "Book", format: "views > 10")
            request.resultType = .count
            container.coordinator.resetCounters()
            guard case .count(let count) = try context.execute(request) else {
                Issue.record("not a count")
                return
            }
            #expect(count == 3)
            #expect(container.coordinator.sqlCounters.statementsExecuted == 1)
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("New", forKey: "title")
            try book.setValue(Int64(99), forKey: "views")
            guard case .count(let withUnsaved) = try context.execute(request) else {
                Issue.record("not a count")
                return
            }
            #expect(withUnsaved == 4)
        }
    }

    @Test("count(for:) of a dictionary request counts its dictionaries: distinct rows, groups, the store's rows without unsaved inserts")
    func countDictionaries() throws {
        try withLibrary { _, context in
            var distinct = FetchRequest(entityName: "Book")
            distinct.resultType = .dictionaries
            distinct.propertiesToFetch = ["author.name"]
            distinct.returnsDistinctResults = true
            var grouped = FetchRequest(entityName: "Book")
            grouped.resultType = .dictionaries
            grouped.propertiesToFetch = ["author.name"]
            grouped.propertiesToGroupBy = ["author.name"]
            var plain = FetchRequest(entityName: "Book")
            plain.resultType = .dictionaries
            _ = try context.insertNewObject(forEntityName: "Book")
            for request in [distinct, grouped, plain] {
                #expect(try context.count(for: request) == context.fetchDictionaries(request).count)
            }
            #expect(try context.count(for: distinct) == 2)
            #expect(try context.count(for: grouped) == 2)
            #expect(try context.count(for: FetchRequest(entityName: "Book")) == context.count(for: plain) + 1)
        }
    }

    @Test("Dictionary rows: present values under their key paths, nils left out, a to-one as its object ID")
    func dictionaryRows() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ursula", forKey: "name")
            let owned = try context.insertNewObject(forEntityName: "Book")
            try owned.setValue("Earthsea", forKey: "title")
            try owned.setValue(Int64(200), forKey: "pages")
            try owned.setValue(Decimal(string: "9.5"), forKey: "price")
            try owned.setValue(author, forKey: "author")
            let orphan = try context.insertNewObject(forEntityName: "Book")
            try orphan.setValue("Tehanu", forKey: "title")
            try context.save()
            var request = FetchRequest(entityName: "Book")
            request.propertiesToFetch = ["title", "pages", "author", "title"]
            request.sortDescriptors = [FetchSortDescriptor(key: "title")]
            let rows = try context.fetchDictionaries(request)
            #expect(rows.count == 2)
            #expect(Set(rows[0].keys) == ["title", "pages", "author"])
            #expect(rows[0]["title"] as? String == "Earthsea")
            #expect(rows[0]["pages"] as? Int64 == 200)
            #expect(rows[0]["author"] as? ManagedObjectID == author.objectID)
            #expect(Set(rows[1].keys) == ["title", "pages"])
            #expect(rows[1]["pages"] as? Int64 == 0)
            request.propertiesToFetch = []
            let all = try context.fetchDictionaries(request)
            #expect(Set(all[0].keys) == ["title", "pages", "price"])
            #expect(all[0]["price"] as? Decimal == Decimal(string: "9.5"))
            #expect(Set(all[1].keys) == ["title", "pages"])
        }
    }

    @Test("Pending inserted and changed objects are matched in memory; includesPendingChanges = false leaves them out")
    func pendingChanges() throws {
        try withLibrary { _, context in
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Cafe Racer", forKey: "title")
            try book.setValue(Int64(70), forKey: "views")
            let tea = try #require(try context.fetch(try FetchRequest(entityName: "Book", format: "title == 'Tea'")).first)
            try tea.setValue(Int64(60), forKey: "views")
            let art = try #require(try context.fetch(try FetchRequest(entityName: "Book", format: "title == 'Naïve Art'")).first)
            try art.setValue(Int64(1), forKey: "views")
            var request = try FetchRequest(entityName: "Book", format: "views > 5")
            request.includesPendingChanges = true
            request.sortDescriptors = [FetchSortDescriptor(key: "views")]
            #expect(try context.fetch(request).map(FetchLibraryStore.label) == ["Café", "CAFE", "café", "Tea", "Cafe Racer"])
            #expect(try context.count(for: request) == 5)
            request.includesPendingChanges = false
            #expect(try context.fetch(request).map(FetchLibraryStore.label) == ["Café", "CAFE", "café", "Naïve Art"])
        }
    }

    @Test("shouldRefreshRefetchedObjects: a refetch shows another context's saved values, keeping this context's changes; off, registered objects keep theirs")
    func refreshRefetched() throws {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let context = container.newBackgroundContext(), other = container.newBackgroundContext()
        let request = try FetchRequest(entityName: "Book", format: "title == 'Tea'")
        let tea = try context.performAndWait { () throws -> ManagedObject in
            let tea = try #require(try context.fetch(request).first)
            #expect(tea.value(forKey: "views") as? Int64 != 999)
            try tea.setValue(5.5, forKey: "price")
            return tea
        }
        try other.performAndWait {
            let book = try #require(try other.fetch(request).first)
            try book.setValue(Int64(999), forKey: "views")
            try other.save()
        }
        try context.performAndWait { () throws in
            #expect(try context.fetch(request).first?.value(forKey: "views") as? Int64 != 999, "Core Data's default keeps registered values")
            var refreshing = request
            refreshing.shouldRefreshRefetchedObjects = true
            for batchSize in [0, 5] {
                refreshing.fetchBatchSize = batchSize
                let fetched = try #require(try context.fetch(refreshing).first)
                #expect(fetched === tea)
                #expect(tea.value(forKey: "views") as? Int64 == 999)
                #expect(tea.value(forKey: "price") as? Double == 5.5, "the unsaved change stays")
            }
        }
    }

    @Test("includesPropertyValues = false reads only IDs: the objects are faults that read their rows when fired")
    func withoutPropertyValues() throws {
        try withLibrary { container, context in
            var request = FetchRequest(entityName: "Book")
            request.sortDescriptors = [FetchSortDescriptor(key: "views")]
            let expected = try context.fetch(request).map(FetchLibraryStore.label)
            context.reset()
            request.includesPropertyValues = false
            let before = container.coordinator.sqlCounters.rowsReturned
            let books = try context.fetch(request)
            #expect(books.allSatisfy { $0.isFault })
            #expect(container.coordinator.sqlCounters.rowsReturned - before == books.count)
            #expect(books.map(FetchLibraryStore.label) == expected)
        }
    }
}
