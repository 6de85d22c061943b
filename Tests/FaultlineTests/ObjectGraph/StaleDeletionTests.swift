import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Two contexts racing a deletion against a new reference (both found by the
/// soak test). A context deletes an object whose to-many another context
/// added a member to and saved in between: the deletion's version check
/// fails; where the merge policy lets the deletion stand, its delete rules run
/// again on the members the store holds now; where the store wins, the
/// deletion is dropped. A context that points a new object at a row another
/// context deleted loses the reference with the row. Either way no row is
/// left pointing at one that no longer exists.
@Suite("A deletion that stands over a conflict reaches the members added since it was read")
struct StaleDeletionTests {
    static var model: ManagedObjectModel {
        ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
                Relationship("series", to: "Book", inverse: "series", toMany: true, deleteRule: .cascadeDeleteRule)
                // Kept by a trigger: the other context's save rewrites the author's row.
                Derived("bookCount", .integer64, "books.@count")
            }
            Entity("Book") {
                Attribute("title", .string)
                Relationship("author", to: "Author", inverse: "books")
                Relationship("series", to: "Author", inverse: "series")
            }
        }
    }

    private func fetch(_ context: ManagedObjectContext, _ entity: String, _ format: String) throws -> ManagedObject {
        var request = FetchRequest(entityName: entity)
        request.predicate = try FetchPredicate(format: format)
        return try #require(try context.fetch(request).first)
    }

    /// X and Z with book Y by Z; context A reads X and its books; context B
    /// moves Y to X (through `key`) and saves; A deletes X and saves under `policy`.
    private func race(policy: MergePolicy, key: String) throws -> (url: URL, thrown: (any Error)?) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-stale-delete-\(UUID().uuidString).sqlite")
        let container = try PersistentContainer(model: Self.model, location: .file(url))
        let setup = container.newBackgroundContext()
        try setup.performAndWait { () throws in
            let x = try setup.insertNewObject(forEntityName: "Author")
            try x.setValue("X", forKey: "name")
            let z = try setup.insertNewObject(forEntityName: "Author")
            try z.setValue("Z", forKey: "name")
            let y = try setup.insertNewObject(forEntityName: "Book")
            try y.setValue("Y", forKey: "title")
            try y.setValue(z, forKey: key)
            try setup.save()
        }
        let a = container.newBackgroundContext()
        a.mergePolicy = policy
        let x = try a.performAndWait { () throws in
            let x = try fetch(a, "Author", "name == 'X'")
            _ = x.value(forKey: key == "author" ? "books" : "series")
            return x
        }
        let b = container.newBackgroundContext()
        b.mergePolicy = policy
        try b.performAndWait { () throws in
            try fetch(b, "Book", "title == 'Y'").setValue(try fetch(b, "Author", "name == 'X'"), forKey: key)
            try b.save()
        }
        var thrown: (any Error)?
        a.performAndWait {
            a.delete(x)
            do { try a.save() } catch { thrown = error }
        }
        return (url, thrown)
    }

    private func rows(_ url: URL, _ sql: String) throws -> [[SQLValue]] { try Connection(.file(url.path)).rows(sql) }

    @Test("Nullify: the book added since is cleared when the deletion stands, kept when the store wins",
          arguments: [MergePolicy.mergeByPropertyObjectTrump, .overwrite, .mergeByPropertyStoreTrump, .rollback])
    func nullify(policy: MergePolicy) throws {
        let (url, thrown) = try race(policy: policy, key: "author")
        defer { MigrationSupport.remove(url) }
        #expect(thrown == nil)
        let standing = policy == .mergeByPropertyObjectTrump || policy == .overwrite
        #expect(try rows(url, "SELECT ZNAME FROM ZAUTHOR ORDER BY ZNAME") == (standing ? [[.text("Z")]] : [[.text("X")], [.text("Z")]]))
        // The book's author column: NULL, or the key of a row that exists.
        let author = try rows(url, "SELECT b.ZAUTHOR IS NULL, (SELECT a.ZNAME FROM ZAUTHOR a WHERE a.Z_PK = b.ZAUTHOR) FROM ZBOOK b")
        #expect(author == [standing ? [.integer(1), .null] : [.integer(0), .text("X")]])
    }

    @Test("Cascade: the book added since is deleted with the author")
    func cascade() throws {
        let (url, thrown) = try race(policy: .mergeByPropertyObjectTrump, key: "series")
        defer { MigrationSupport.remove(url) }
        #expect(thrown == nil)
        #expect(try rows(url, "SELECT ZNAME FROM ZAUTHOR") == [[.text("Z")]])
        #expect(try rows(url, "SELECT COUNT(*) FROM ZBOOK") == [[.integer(0)]])
    }

    @Test("A book inserted for an author another context deleted is saved without one",
          arguments: [MergePolicy.mergeByPropertyObjectTrump, .overwrite, .mergeByPropertyStoreTrump, .rollback])
    func insertForDeletedAuthor(policy: MergePolicy) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-stale-delete-\(UUID().uuidString).sqlite")
        defer { MigrationSupport.remove(url) }
        let container = try PersistentContainer(model: Self.model, location: .file(url))
        let setup = container.newBackgroundContext()
        try setup.performAndWait { () throws in
            try setup.insertNewObject(forEntityName: "Author").setValue("X", forKey: "name")
            try setup.save()
        }
        let a = container.newBackgroundContext()
        a.mergePolicy = policy
        let x = try a.performAndWait { try fetch(a, "Author", "name == 'X'") }
        let b = container.newBackgroundContext()
        try b.performAndWait { () throws in
            b.delete(try fetch(b, "Author", "name == 'X'"))
            try b.save()
        }
        try a.performAndWait { () throws in
            let book = try a.insertNewObject(forEntityName: "Book")
            try book.setValue("Y", forKey: "title")
            try book.setValue(x, forKey: "author")
            try a.save()
            #expect(book.value(forKey: "author") == nil)
        }
        #expect(try rows(url, "SELECT ZTITLE, ZAUTHOR FROM ZBOOK") == [[.text("Y"), .null]])
        #expect(try rows(url, "SELECT COUNT(*) FROM ZAUTHOR") == [[.integer(0)]])
    }

    @Test("Under error the save reports the conflict and writes nothing")
    func error() throws {
        let (url, thrown) = try race(policy: .error, key: "author")
        defer { MigrationSupport.remove(url) }
        guard case SaveError.conflicts? = thrown else {
            Issue.record("expected conflicts, got \(String(describing: thrown))")
            return
        }
        #expect(try rows(url, "SELECT COUNT(*) FROM ZAUTHOR") == [[.integer(2)]])
    }
}
