import Foundation
import Testing
@testable import Faultline

/// Faults cost exactly the statements the design promises, read from the
/// coordinator's counters.
@Suite("Faulting and the row cache")
struct FaultingTests {
    /// 1,000 authors, each with 3 books, saved in one context.
    private func populated() throws -> (PersistentContainer, URL) {
        let (container, url) = try LibraryModel.container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<1_000 {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue(String(format: "Author %04d", index), forKey: "name")
                for number in 0..<3 {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue("Book \(index)-\(number)", forKey: "title")
                    try book.setValue(author, forKey: "author")
                }
            }
            try context.save()
        }
        container.coordinator.rowCache.removeAll()
        return (container, url)
    }

    private func statements(_ container: PersistentContainer) -> Int { container.coordinator.sqlCounters.statementsExecuted }

    @Test("Fetching 1,000 objects as faults takes 1 statement; touching each in batches of 100 takes exactly 10 more")
    func batchFaulting() throws {
        let (container, url) = try populated()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            container.coordinator.resetCounters()
            var request = FetchRequest(entityName: "Author")
            request.fetchBatchSize = 100
            let authors = try context.fetch(request)
            #expect(authors.count == 1_000)
            #expect(authors.allSatisfy { $0.isFault })
            #expect(statements(container) == 1)
            for author in authors { _ = author.value(forKey: "name") }
            #expect(statements(container) == 11)
            #expect(context.counters.faultsFulfilledBySQL == 10)
            #expect(context.counters.faultsFired == 10)
        }
    }

    @Test("A second context touching the same objects takes 0 statements; after a save that changes one, still 0: the save cached the row it wrote")
    func rowCacheAcrossContexts() throws {
        let (container, url) = try populated()
        defer { LibraryModel.remove(url) }
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        second.automaticallyMergesChangesFromParent = true
        let names = try first.performAndWait {
            let authors = try first.fetch(FetchRequest(entityName: "Author"))
            return authors.compactMap { $0.value(forKey: "name") as? String }
        }
        #expect(names.count == 1_000)
        container.coordinator.resetCounters()
        let ids = try second.performAndWait {
            var request = FetchRequest(entityName: "Author")
            request.fetchBatchSize = 0
            let authors = try second.fetch(request)
            container.coordinator.resetCounters()
            for author in authors { _ = author.value(forKey: "name") }
            #expect(statements(container) == 0)
            #expect(second.counters.faultsFulfilledFromCache == 1_000)
            return authors.map(\.objectID)
        }
        let changed = try #require(ids.first)
        try first.performAndWait {
            let author = try first.object(with: changed)
            try author.setValue("Renamed", forKey: "name")
            try first.save()
        }
        try second.performAndWait {
            container.coordinator.resetCounters()
            let before = second.counters.faultsFulfilledBySQL
            for id in ids { _ = try second.object(with: id).value(forKey: "name") }
            // The save left the whole new row in the cache: the changed one too costs nothing.
            #expect(statements(container) == 0)
            #expect(second.counters.faultsFulfilledBySQL == before)
            #expect(try second.object(with: changed).value(forKey: "name") as? String == "Renamed")
        }
    }

    @Test("author.books takes 1 statement, its books then fire no fault SQL, and a to-one destination is a fault")
    func relationshipFaults() throws {
        let (container, url) = try populated()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Author")
            request.fetchLimit = 1
            request.returnsObjectsAsFaults = false
            let author = try #require(try context.fetch(request).first)
            container.coordinator.resetCounters()
            let books = try #require(author.value(forKey: "books") as? [ManagedObject])
            #expect(books.count == 3)
            #expect(statements(container) == 1)
            for book in books { _ = book.value(forKey: "title") }
            #expect(statements(container) == 1)
            let other = try #require(try context.fetch(FetchRequest(entityName: "Book")).last)
            let destination = try #require(other.value(forKey: "author") as? ManagedObject)
            #expect(destination.isFault)
        }
    }

    @Test("Sub-entity rows come back when fetching the parent entity, as their own entity")
    func subentities() throws {
        let model = ManagedObjectModel {
            Entity("Content", abstract: true) { Attribute("title", .string) }
            Entity("Article", parent: "Content") { Attribute("views", .integer64) }
            Entity("Page", parent: "Content") { Attribute("slug", .string) }
        }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let article = try context.insertNewObject(forEntityName: "Article")
            try article.setValue("A", forKey: "title")
            try article.setValue(5, forKey: "views")
            let page = try context.insertNewObject(forEntityName: "Page")
            try page.setValue("B", forKey: "title")
            try page.setValue("b", forKey: "slug")
            try context.save()
            context.reset()
            var request = FetchRequest(entityName: "Content")
            request.sortDescriptors = [FetchSortDescriptor(key: "title")]
            let all = try context.fetch(request)
            #expect(all.map { $0.entity?.name } == ["Article", "Page"])
            #expect(all[0].value(forKey: "views") as? Int64 == 5)
            #expect(all[1].value(forKey: "slug") as? String == "b")
            request.includesSubentities = false
            #expect(try context.fetch(request).isEmpty)
            #expect(try context.fetch(FetchRequest(entityName: "Page")).count == 1)
        }
    }
}
