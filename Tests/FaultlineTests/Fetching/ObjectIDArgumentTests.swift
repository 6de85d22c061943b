import Foundation
import Testing
@testable import Faultline

/// A `ManagedObjectID` is a predicate argument, as in Core Data: `self == %@`,
/// `self IN %@` and `author == %@` with IDs, in SQL and in memory alike.
@Suite("Object IDs as predicate arguments")
struct ObjectIDArgumentTests {
    @Test("self == %@, self IN %@ and a to-one == %@ with object IDs select the right rows, saved and pending")
    func objectIDArguments() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var authors: [ManagedObject] = []
            for name in ["Ann", "Bea", "Cid"] {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue(name, forKey: "name")
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("By \(name)", forKey: "title")
                try book.setDestination(author, forKey: "author")
                authors.append(author)
            }
            try context.save()
            let ids = authors.map(\.objectID)

            func names(_ format: String, _ argument: Any) throws -> [String] {
                var request = FetchRequest(entityName: "Author")
                request.predicate = try FetchPredicate(format: format, argument)
                request.sortDescriptors = [FetchSortDescriptor(key: "name")]
                return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
            }
            #expect(try names("self == %@", ids[1]) == ["Bea"])
            #expect(try names("self IN %@", [ids[0], ids[2]]) == ["Ann", "Cid"])
            #expect(try names("self != %@", ids[0]) == ["Bea", "Cid"])

            var books = FetchRequest(entityName: "Book")
            books.predicate = try FetchPredicate(format: "author == %@", ids[2])
            #expect(try context.fetch(books).compactMap { $0.value(forKey: "title") as? String } == ["By Cid"])

            // A pending change goes through the in-memory evaluator with the same answer.
            try authors[1].setValue("Bee", forKey: "name")
            #expect(try names("self == %@", ids[1]) == ["Bee"])
        }
    }
}
