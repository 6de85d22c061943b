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
    @Test("An object of a fired batch, materialised elsewhere and refreshed, fires on its own, edits and saves")
    func refreshedMemberOfFiredBatch() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let setUp = container.newBackgroundContext()
        try setUp.performAndWait {
            for name in ["Ann", "Bea", "Cid"] {
                let author = try setUp.insertNewObject(forEntityName: "Author")
                try author.setValue(name, forKey: "name")
            }
            try setUp.save()
        }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var byName = FetchRequest(entityName: "Author")
            byName.sortDescriptors = [FetchSortDescriptor(key: "name")]
            byName.fetchBatchSize = 10
            let batched = try context.fetch(byName)
            // Materialised by a full fetch while still members of the unfired batch.
            var full = FetchRequest(entityName: "Author")
            full.returnsObjectsAsFaults = false
            _ = try context.fetch(full)
            let (ann, bea) = (batched[0], batched[1])
            context.refresh(bea, mergeChanges: false)
            #expect(bea.value(forKey: "name") as? String == "Bea")  // fires the batch: only Bea was a fault
            context.refresh(ann, mergeChanges: false)
            #expect(ann.isFault)
            #expect(ann.value(forKey: "name") as? String == "Ann")
            #expect(!ann.isFault)
            try ann.setValue("Anna", forKey: "name")
            try context.save()
        }
        let check = container.newBackgroundContext()
        try check.performAndWait {
            let renamed = try FetchRequest(entityName: "Author", format: "name == %@", "Anna")
            #expect(try check.count(for: renamed) == 1)
        }
    }
}
