import Foundation
import Testing
@testable import Faultline

/// Background contexts on one store, used concurrently from their own queues.
@Suite("Concurrent contexts")
struct ConcurrencyTests {
    @Test("Four background contexts insert concurrently into one store and every row arrives")
    func concurrentInserts() async throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    try await container.performBackgroundTask { context in
                        for batch in 0..<5 {
                            for index in 0..<50 {
                                let author = try context.insertNewObject(forEntityName: "Author")
                                try author.setValue("Author \(worker)-\(batch)-\(index)", forKey: "name")
                                let book = try context.insertNewObject(forEntityName: "Book")
                                try book.setValue("Book \(worker)-\(batch)-\(index)", forKey: "title")
                                try book.setValue(author, forKey: "author")
                            }
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let check = container.newBackgroundContext()
        try check.performAndWait {
            #expect(try check.count(for: FetchRequest(entityName: "Author")) == 1_000)
            #expect(try check.count(for: FetchRequest(entityName: "Book")) == 1_000)
            let keys = try container.coordinator.withReader { connection in
                try connection.rows("SELECT count(DISTINCT Z_PK), max(Z_PK) FROM ZBOOK")
            }
            #expect(keys == [[.integer(1_000), .integer(1_000)]])
        }
    }
}
