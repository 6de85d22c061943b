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

    /// The preflight of the store at `url` (written by `shelves(manyToMany:)`) for a migration to `model`.
    static func preflight(_ url: URL, to model: ManagedObjectModel, manyToMany: Bool = false) throws -> MigrationPreflight {
        try MigrationPreflight.run(
            on: Connection(.file(url.path)), from: ModelVersion(shelves(manyToMany: manyToMany), label: "V1"),
            to: ModelVersion(model, label: "V2"))
    }

    @Test("The preflight lists the rows outside a new count, as many as the migration refuses, and only reads the store")
    func preflightLists() throws {
        let url = try Self.populated()
        defer { S.remove(url) }
        let before = try S.content(url)
        let cases: [(model: ManagedObjectModel, min: Int, max: Int, rows: Int)] = [
            (Self.shelves(minCount: 2), 2, 0, 1),
            (Self.shelves(maxCount: 2), 0, 2, 1),
            (Self.shelves(minCount: 1, optional: false), 1, 0, 1),
            (Self.shelves(minCount: 2, optional: false), 2, 0, 2),
        ]
        for (model, minimum, maximum, rows) in cases {
            let preflight = try Self.preflight(url, to: model)
            #expect(preflight.countViolations
                == [.init(entity: "Shelf", relationship: "books", minCount: minimum, maxCount: maximum, rows: rows)])
            #expect(!preflight.isClean)
            guard case .relationshipCountOutOfRange(_, _, minimum, maximum, rows)? = try Self.migrate(url, to: model) else {
                Issue.record("the migration to \(minimum)...\(maximum) should refuse the \(rows) row(s) the preflight lists")
                continue
            }
        }
        #expect(try Self.preflight(url, to: Self.shelves(minCount: 2)).description
            == "Shelf.books must hold at least 2 objects: 1 row(s) hold a number outside that")
        #expect(try Self.preflight(url, to: Self.shelves(minCount: 1, maxCount: 3)).isClean)
        #expect(try S.content(url) == before)
    }

    @Test("The preflight counts a many-to-many's members in its join table")
    func preflightManyToMany() throws {
        let url = try Self.populated(manyToMany: true)
        defer { S.remove(url) }
        #expect(try Self.preflight(url, to: Self.shelves(minCount: 2, manyToMany: true), manyToMany: true).countViolations
            == [.init(entity: "Shelf", relationship: "books", minCount: 2, maxCount: 0, rows: 1)])
        #expect(try Self.preflight(url, to: Self.shelves(maxCount: 3, manyToMany: true), manyToMany: true).isClean)
    }

    /// Shelves without books, then (`withBooks`) a to-many the new version adds.
    static func bare(withBooks: Bool, optional: Bool = true) -> ManagedObjectModel {
        S.model {
            Entity("Shelf") {
                Attribute("name", .string)
                if withBooks { Relationship("books", to: "Book", inverse: "shelf", toMany: true, optional: optional, minCount: 1) }
            }
            Entity("Book") {
                Attribute("title", .string)
                if withBooks { Relationship("shelf", to: "Shelf", inverse: "books") }
            }
        }
    }

    @Test("A new required to-many with a minimum leaves every existing row short; a new optional one, none")
    func preflightNewRelationship() throws {
        let url = S.temporaryStore()
        defer { S.remove(url) }
        try S.populate(url, Self.bare(withBooks: false)) { context in
            for name in ["A", "B"] { try context.insertNewObject(forEntityName: "Shelf").setValue(name, forKey: "name") }
        }
        let v1 = try ModelVersion(Self.bare(withBooks: false), label: "V1")
        func preflight(optional: Bool) throws -> MigrationPreflight {
            try MigrationPreflight.run(on: Connection(.file(url.path)), from: v1,
                                       to: ModelVersion(Self.bare(withBooks: true, optional: optional), label: "V2"))
        }
        #expect(try preflight(optional: false).countViolations
            == [.init(entity: "Shelf", relationship: "books", minCount: 1, maxCount: 0, rows: 2)])
        #expect(try preflight(optional: true).isClean)
        do {
            _ = try PersistentContainer(model: Self.bare(withBooks: true, optional: false), location: .file(url),
                                        migration: MigrationOptions(path: .lightweight([v1])))
            Issue.record("the migration left two shelves without their one book")
        } catch MigrationError.relationshipCountOutOfRange(let entity, let relationship, 1, 0, let rows) {
            #expect(entity == "Shelf" && relationship == "books" && rows == 2)
        }
    }
}
