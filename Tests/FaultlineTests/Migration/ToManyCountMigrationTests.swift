import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

private typealias S = MigrationSupport

/// A version that gives a to-many a minimum or maximum count the existing
/// rows break: Core Data refuses the migration when it validates the migrated
/// objects, as a save would; an optional to-many may still be empty.
@Suite("Migrating to a to-many with a minimum or maximum count")
struct ToManyCountMigrationTests {
    /// Shelves and their books, with `manyToMany` kept in a join table.
    static func shelves(minCount: Int = 0, maxCount: Int? = nil, optional: Bool = true, manyToMany: Bool = false) -> ManagedObjectModel {
        S.model {
            Entity("Shelf") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "shelves", toMany: true, optional: optional, minCount: minCount, maxCount: maxCount)
            }
            Entity("Book") {
                Attribute("title", .string)
                Relationship("shelves", to: "Shelf", inverse: "books", toMany: manyToMany)
            }
        }
    }

    /// Shelves A, B and C holding 1, 0 and 3 books.
    static func populated(manyToMany: Bool = false) throws -> URL {
        let url = S.temporaryStore()
        try S.populate(url, shelves(manyToMany: manyToMany)) { context in
            for (name, count) in [("A", 1), ("B", 0), ("C", 3)] {
                let shelf = try context.insertNewObject(forEntityName: "Shelf")
                try shelf.setValue(name, forKey: "name")
                for index in 0..<count {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue("\(name)\(index)", forKey: "title")
                    if manyToMany { try shelf.setValue([book], forKey: "books") } else { try book.setValue(shelf, forKey: "shelves") }
                }
                if manyToMany, count > 1 {
                    try shelf.setValue(try context.fetch(FetchRequest(entityName: "Book")).filter {
                        ($0.value(forKey: "title") as? String)?.hasPrefix(name) == true
                    }, forKey: "books")
                }
            }
        }
        return url
    }

    /// The error migrating the store at `url` to `model` raised; nil when it migrated.
    static func migrate(_ url: URL, to model: ManagedObjectModel, manyToMany: Bool = false) throws -> MigrationError? {
        let v1 = try ModelVersion(shelves(manyToMany: manyToMany), label: "V1")
        do {
            _ = try PersistentContainer(model: model, location: .file(url), migration: MigrationOptions(path: .lightweight([v1])))
            return nil
        } catch let error as MigrationError {
            return error
        }
    }

    @Test("A minimum of 2 refuses the shelf with one book, not the empty optional one, and leaves the store as it was")
    func minimumRefused() throws {
        let url = try Self.populated()
        defer { S.remove(url) }
        let before = try S.content(url)
        let error = try Self.migrate(url, to: Self.shelves(minCount: 2))
        guard case .relationshipCountOutOfRange(let entity, let relationship, 2, 0, let rows)? = error else {
            Issue.record("expected the count refused, got \(String(describing: error))")
            return
        }
        #expect(entity == "Shelf" && relationship == "books" && rows == 1)
        #expect(error?.description == "Shelf.books must hold at least 2 objects and 1 rows hold a number outside that")
        #expect(try S.content(url) == before)
    }

    @Test("A maximum of 2 refuses the shelf with three; a minimum of 1 with a maximum of 3 migrates")
    func maximumRefusedAndRangeMigrates() throws {
        let url = try Self.populated()
        defer { S.remove(url) }
        guard case .relationshipCountOutOfRange(_, _, 0, 2, 1)? = try Self.migrate(url, to: Self.shelves(maxCount: 2)) else {
            Issue.record("expected the shelf of three refused")
            return
        }
        #expect(try Self.migrate(url, to: Self.shelves(minCount: 1, maxCount: 3)) == nil)
        try S.expectMigrated(url, to: Self.shelves(minCount: 1, maxCount: 3))
    }

    @Test("A required to-many refuses the empty shelf too")
    func requiredRefusesEmpty() throws {
        let url = try Self.populated()
        defer { S.remove(url) }
        guard case .relationshipCountOutOfRange(_, _, 1, 0, 1)? = try Self.migrate(url, to: Self.shelves(minCount: 1, optional: false)) else {
            Issue.record("expected the empty shelf refused")
            return
        }
    }

    @Test("A many-to-many, counted in its join table, the same way")
    func manyToMany() throws {
        let url = try Self.populated(manyToMany: true)
        defer { S.remove(url) }
        let error = try Self.migrate(url, to: Self.shelves(minCount: 2, manyToMany: true), manyToMany: true)
        guard case .relationshipCountOutOfRange(_, _, 2, 0, 1)? = error else {
            Issue.record("expected the shelf with one book refused, got \(String(describing: error))")
            return
        }
        #expect(try Self.migrate(url, to: Self.shelves(maxCount: 3, manyToMany: true), manyToMany: true) == nil)
    }
}
