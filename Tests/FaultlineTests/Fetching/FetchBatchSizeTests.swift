import Foundation
import Testing
@testable import Faultline

/// A batched fetch reads IDs first, then only the batches actually touched.
@Suite("fetchBatchSize over 10,000 objects reads only the batches touched")
struct FetchBatchSizeTests {
    @Test("10,000 books with a predicate and sort, batches of 500: 1 statement for IDs, 1 per batch touched, rows only for those")
    func batches() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Batcher", forKey: "name")
            for index in 0..<10_000 {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue(String(format: "Book %05d", index), forKey: "title")
                try book.setValue(Int64(index), forKey: "pages")
                try book.setValue(author, forKey: "author")
            }
            try context.save()
        }
        container.coordinator.rowCache.removeAll()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            container.coordinator.resetCounters()
            var request = try FetchRequest(entityName: "Book", format: "author.name == %@ AND pages >= 0", "Batcher")
            request.sortDescriptors = [FetchSortDescriptor(key: "pages")]
            request.fetchBatchSize = 500
            let books = try reader.fetch(request)
            #expect(books.count == 10_000)
            #expect(container.coordinator.sqlCounters.statementsExecuted == 1)
            #expect(container.coordinator.sqlCounters.rowsReturned == 10_000)
            _ = books[0].value(forKey: "title")
            _ = books[499].value(forKey: "title")
            _ = books[7_250].value(forKey: "title")
            #expect(books[7_250].value(forKey: "title") as? String == "Book 07250")
            #expect(container.coordinator.sqlCounters.statementsExecuted == 3)
            #expect(container.coordinator.sqlCounters.rowsReturned == 11_000)
            #expect(books.filter { !$0.isFault }.count == 1_000)
        }
    }
}
