import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Every file operation of a save, a batch insert, a batch delete, a migration
/// step and a store's creation, failed in turn (IOFaultSweep): each time the
/// operation throws a typed error and loses nothing — the context keeps its
/// unsaved changes and saves them once the fault is gone — and the store holds
/// the state before or the state after, never a mixture, with integrity ok.
@Suite("An I/O fault at any file operation loses nothing", .serialized)
struct IOFaultTests {
    /// Authors with a derived book count; books with a canonical search column.
    static func model(isbn: Bool = false) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
                Derived("bookCount", .integer64, "books.@count")
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("pages", .integer64)
                if isbn { Attribute("isbn", .string) }
                Relationship("author", to: "Author", inverse: "books")
                Derived("searchTitle", .string, "canonical:(title)")
            }
        }
    }

    static let authorCount = 20
    static let booksPerAuthor = 5

    /// 20 authors with 5 books each, written through a container.
    static func populate(_ url: URL) throws {
        let container = try PersistentContainer(model: model(), location: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for authorIndex in 0..<authorCount {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue("Author \(authorIndex)", forKey: "name")
                for bookIndex in 0..<booksPerAuthor {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue("Book \(authorIndex)-\(bookIndex) Élan", forKey: "title")
                    try book.setValue(Int64(50 * (bookIndex + 1)), forKey: "pages")
                    try book.setValue(author, forKey: "author")
                }
            }
            try context.save()
        }
    }

    /// The authors' names in the store at `url`.
    static func names(in url: URL) throws -> [String] {
        try Connection(.file(url.path)).rows("SELECT ZNAME FROM ZAUTHOR").compactMap {
            if case .text(let name)? = $0.first { name } else { nil }
        }
    }

    private func report(_ sweep: IOFaultSweep) {
        print(sweep.summary)
        #expect(sweep.failures > 0, "\(sweep.name): no fault made the operation fail")
    }

    @Test("A save of inserts, updates, a reparenting and deletes")
    func save() throws {
        let sweep = try IOFaultSweep("save", prepare: Self.populate)
        try sweep.run { attempt in
            let container = try PersistentContainer(model: Self.model(), location: .file(attempt.store))
            let context = container.newBackgroundContext()
            try context.performAndWait { () throws in
                var request = FetchRequest(entityName: "Author")
                request.sortDescriptors = [FetchSortDescriptor(key: "name")]
                let authors = try context.fetch(request)
                var booksRequest = FetchRequest(entityName: "Book")
                booksRequest.sortDescriptors = [FetchSortDescriptor(key: "title")]
                let books = try context.fetch(booksRequest)
                let newAuthor = try context.insertNewObject(forEntityName: "Author")
                try newAuthor.setValue("New author", forKey: "name")
                for index in 0..<10 {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue("New book \(index)", forKey: "title")
                    try book.setValue(Int64(index), forKey: "pages")
                    try book.setValue(index < 5 ? newAuthor : authors[3], forKey: "author")
                }
                for book in books.prefix(5) { try book.setValue("Retitled \(book.value(forKey: "title") ?? "")", forKey: "title") }
                try books[10].setValue(newAuthor, forKey: "author")
                try books[11].setValue(authors[0], forKey: "author")
                context.delete(books[20])
                context.delete(books[21])
                context.delete(authors[19])
                // The delete rules run now, so the counts below include what they change.
                context.processPendingChanges()
                let inserted = context.insertedObjects.count
                let updated = context.updatedObjects.count
                let deleted = context.deletedObjects.count
                attempt.arm()
                do {
                    try context.save()
                } catch {
                    try attempt.failed(with: error)
                    // Nothing was lost: the same changes wait, and save once the fault is gone.
                    #expect(context.hasChanges)
                    #expect(context.insertedObjects.count == inserted)
                    #expect(context.updatedObjects.count == updated)
                    #expect(context.deletedObjects.count == deleted)
                    #expect(newAuthor.value(forKey: "name") as? String == "New author")
                    try context.save()
                }
                #expect(!context.hasChanges)
            }
        }
        report(sweep)
    }

    @Test("A batch insert of 300 books")
    func batchInsert() throws {
        let sweep = try IOFaultSweep("batch insert", prepare: Self.populate)
        try sweep.run { attempt in
            let container = try PersistentContainer(model: Self.model(), location: .file(attempt.store))
            let objects: [[String: Any]] = (0..<300).map { ["title": "Batch \($0)", "pages": Int64($0)] }
            let request = try BatchInsertRequest(entityName: "Book", in: container.coordinator.model, objects: objects)
            try attempt.armedAndRetried { _ = try container.coordinator.execute(request) }
        }
        report(sweep)
    }

    @Test("A batch delete of the long books, with the derived counts it changes")
    func batchDelete() throws {
        let sweep = try IOFaultSweep("batch delete", prepare: Self.populate)
        try sweep.run { attempt in
            let container = try PersistentContainer(model: Self.model(), location: .file(attempt.store))
            let request = BatchDeleteRequest(entityName: "Book", predicate: try FetchPredicate(format: "pages > 100"))
            try attempt.armedAndRetried { _ = try container.coordinator.execute(request) }
        }
        report(sweep)
    }

    @Test("A lightweight migration step that adds an attribute")
    func migration() throws {
        let sweep = try IOFaultSweep("migration", failureMayCommit: true, prepare: Self.populate)
        try sweep.run { attempt in
            let options = MigrationOptions(path: .lightweight([try ModelVersion(Self.model())]))
            try attempt.armedAndRetried {
                _ = try PersistentContainer(model: Self.model(isbn: true), location: .file(attempt.store), migration: options)
            }
        }
        report(sweep)
    }

    @Test("Creating a store")
    func creation() throws {
        let sweep = try IOFaultSweep("store creation", excludingMetadata: true, failureMayCommit: true, prepare: nil)
        try sweep.run { attempt in
            try attempt.armedAndRetried { _ = try PersistentContainer(model: Self.model(), location: .file(attempt.store)) }
        }
        report(sweep)
    }
}
