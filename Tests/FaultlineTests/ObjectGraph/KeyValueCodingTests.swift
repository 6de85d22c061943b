import Foundation
import Testing
@testable import Faultline

/// The key-value coding forms Core Data importers and completion-block code
/// are written with: `setValuesForKeys(_:)`, `dictionaryWithValues(forKeys:)`
/// and `performBackgroundTask` with a block.
@Suite("Key-value coding forms and the block form of performBackgroundTask work as Core Data's")
struct KeyValueCodingTests {
    @Test("setValuesForKeys sets attributes and relationships, NSNull clears, and the values are saved")
    func setValuesForKeys() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let id = try context.performAndWait { () throws -> ManagedObjectID in
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Ana", forKey: "name")
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValuesForKeys(["title": "Dune", "pages": Int64(412), "author": author, "price": NSNull()])
            try context.save()
            return book.objectID
        }
        let reader = container.newBackgroundContext()
        let values = try reader.performAndWait { () throws -> [String: Any] in
            try reader.existingObject(with: id).dictionaryWithValues(forKeys: ["title", "pages", "price", "author"])
        }
        #expect(values["title"] as? String == "Dune")
        #expect(values["pages"] as? Int64 == 412)
        #expect(values["price"] is NSNull)
        #expect(values.count == 4)
        let authorName = reader.performAndWait { (values["author"] as? ManagedObject)?.value(forKey: "name") as? String }
        #expect(authorName == "Ana")
    }

    @Test("An unknown key throws, naming it, after the keys sorted before it were set; rollback undoes them")
    func unknownKey() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Before", forKey: "title")
            try context.save()
            #expect(throws: ObjectAccessError.unknownKey(entity: "Book", key: "subtitle")) {
                try book.setValuesForKeys(["pages": Int64(3), "subtitle": "x", "title": "After"])
            }
            #expect(book.value(forKey: "pages") as? Int64 == 3)
            #expect(book.value(forKey: "title") as? String == "Before")
            context.rollback()
            #expect(book.value(forKey: "pages") as? Int64 == 0)
        }
    }

    @Test("dictionaryWithValues gives NSNull for nil and for an unknown key")
    func dictionaryWithValues() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let book = try context.insertNewObject(forEntityName: "Book")
            let values = book.dictionaryWithValues(forKeys: ["title", "nothing"])
            #expect(values["title"] is NSNull)
            #expect(values["nothing"] is NSNull)
        }
    }

    @Test("performBackgroundTask with a block returns at once and runs it on a new background context's queue")
    func performBackgroundTaskBlock() throws {
        let (container, url) = try LibraryModel.container()
        defer { LibraryModel.remove(url) }
        final class Outcome: @unchecked Sendable { var onQueue = false; var error: Error?; var count = -1 }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        container.performBackgroundTask { context in
            outcome.onQueue = context.isOnOwnQueue
            do {
                try context.insertNewObject(forEntityName: "Author").setValue("Bea", forKey: "name")
                try context.save()
                outcome.count = try context.count(for: FetchRequest(entityName: "Author"))
            } catch { outcome.error = error }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(outcome.onQueue)
        #expect(outcome.error == nil)
        #expect(outcome.count == 1)
    }
}
