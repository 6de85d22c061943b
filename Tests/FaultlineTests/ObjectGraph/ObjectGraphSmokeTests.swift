import Foundation
import Testing
@testable import Faultline

@Suite("Object graph basics")
struct ObjectGraphSmokeTests {
    @Test("Insert, save, fetch back in another context, update, delete")
    func roundTrip() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ursula", forKey: "name")
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Earthsea", forKey: "title")
            try book.setValue(183, forKey: "pages")
            try book.setValue(author, forKey: "author")
            #expect((author.value(forKey: "books") as? [ManagedObject])?.count == 1)
            #expect(author.objectID.isTemporaryID)
            try context.save()
            #expect(!author.objectID.isTemporaryID)
            #expect(!context.hasChanges)
        }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            var request = FetchRequest(entityName: "Book")
            request.sortDescriptors = [FetchSortDescriptor(key: "title")]
            let books = try other.fetch(request)
            #expect(books.count == 1)
            let book = try #require(books.first)
            #expect(book.value(forKey: "title") as? String == "Earthsea")
            #expect(book.value(forKey: "pages") as? Int64 == 183)
            let author = try #require(book.value(forKey: "author") as? ManagedObject)
            #expect(author.isFault)
            #expect(author.value(forKey: "name") as? String == "Ursula")
            try book.setValue(200, forKey: "pages")
            try other.save()
            other.delete(author)
            try other.save()
            #expect(try other.count(for: FetchRequest(entityName: "Author")) == 0)
            #expect(try other.count(for: FetchRequest(entityName: "Book")) == 0)
        }
    }
}
