import Faultline
import Foundation
import Testing

/// Key paths crossing two to-manys (Publisher.authors.books) and SUBQUERY over
/// such paths: the SQL flattens them as the evaluator does (one row per path
/// to an element, so a book reached twice counts twice).
@Suite("Key paths through several to-manys: aggregates, quantifiers and SUBQUERY compile, and agree with the evaluator")
struct MultiHopCollectionTests {
    /// Orbit publishes Ana (Café 10 views 9.99, CAFE 20 views 15, café 50 views 7.5);
    /// Tor publishes Bob (Tea 5 views 3, Naïve Art 100 views 42, Résumé 0 views no price).
    static let cases: [(entity: String, format: String, expected: Set<String>)] = [
        ("Publisher", "authors.books.@count == 3", ["Orbit", "Tor"]),
        ("Publisher", "authors.books.@sum.views > 100", ["Tor"]),
        ("Publisher", "authors.books.@avg.views < 30", ["Orbit"]),
        ("Publisher", "authors.books.@min.price < 5", ["Tor"]),
        ("Publisher", "authors.books.@max.price > 40", ["Tor"]),
        ("Publisher", "ANY authors.books.title BEGINSWITH[cd] \"cafe\"", ["Orbit"]),
        ("Publisher", "ALL authors.books.views > 5", ["Orbit"]),
        ("Publisher", "NONE authors.books.price > 40", ["Orbit"]),
        ("Publisher", "SUBQUERY(authors.books, $b, $b.views >= 20).@count == 2", ["Orbit"]),
        ("Publisher", "SUBQUERY(authors.books, $b, $b.author.name == \"Bob\" AND $b.price == nil).@count == 1", ["Tor"]),
        // Ana's 3 books each lead back to Ana's 3 books: 9 paths, 6 of them to a book with more than 15 views.
        ("Author", "SUBQUERY(books.author.books, $b, $b.views > 15).@count == 6", ["Ana"]),
        ("Author", "books.author.books.@count == 9", ["Ana", "Bob"]),
        // A SUBQUERY over a to-one reached through a to-many binds its variable to the destination.
        ("Author", "SUBQUERY(books.author, $a, $a.publisher.name == \"Tor\").@count == 3", ["Bob"]),
        ("Author", "SUBQUERY(books.author.publisher, $p, $p.name == \"Orbit\").@count > 0", ["Ana"]),
    ]

    @Test("SQL returns what the evaluator returns over the stored objects", arguments: cases.indices)
    func agrees(_ index: Int) throws {
        let row = Self.cases[index]
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let predicate = try FetchPredicate(format: row.format)
        let context = container.newBackgroundContext()
        let (fetched, evaluated) = try context.performAndWait {
            let fetched = Set(try context.fetch(FetchRequest(entityName: row.entity, predicate: predicate)).map(FetchLibraryStore.label))
            let all = try context.fetch(FetchRequest(entityName: row.entity))
            return (fetched, Set(try all.filter { try predicate.evaluate(with: $0) }.map(FetchLibraryStore.label)))
        }
        #expect(fetched == evaluated, "\(row.format): SQL \(fetched), evaluator \(evaluated)")
        #expect(fetched == row.expected, "\(row.format)")
    }

    @Test("Each to-many crossed is one FROM item, correlated to the one before")
    func sqlText() throws {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        let schema = container.coordinator.schema
        let count = try PredicateSQLCompiler.compile(
            try FetchPredicate(format: "authors.books.@count > %@", 2), entityName: "Publisher", schema: schema)
        #expect(count.whereClause
            == "(SELECT COUNT(*) FROM ZAUTHOR t1, ZBOOK t2 WHERE t1.ZPUBLISHER = t0.Z_PK AND t2.ZAUTHOR = t1.Z_PK) > ?")
        let subquery = try PredicateSQLCompiler.compile(
            try FetchPredicate(format: "SUBQUERY(books.author, $a, $a.name == %@).@count > 0", "Ana"),
            entityName: "Author", schema: schema)
        #expect(subquery.whereClause
            == "(SELECT COUNT(*) FROM ZBOOK t1 LEFT OUTER JOIN ZAUTHOR t2 ON t2.Z_PK = t1.ZAUTHOR"
            + " WHERE t1.ZAUTHOR = t0.Z_PK AND t2.ZNAME = ?) > ?")
    }

    @Test("A SUBQUERY over attribute values, or over another SUBQUERY, is refused with a clear error")
    func refused() throws {
        let (container, url) = try FetchLibraryStore.make()
        defer { FetchLibraryStore.remove(url) }
        for format in ["SUBQUERY(books.title, $t, $t BEGINSWITH \"C\").@count > 0",
                       "SUBQUERY(SUBQUERY(books, $b, $b.views > 1), $c, $c.views > 2).@count > 0"] {
            #expect(throws: FetchError.self, "\(format)") {
                try PredicateSQLCompiler.compile(try FetchPredicate(format: format), entityName: "Author",
                                                 schema: container.coordinator.schema)
            }
        }
    }

    /// Ana's books: A1 and A3 in series S1, A2 in none; Bob's B1 and B2 in S2;
    /// Cy has no books. Every book has views (A1 1, others 10). S1 is tagged
    /// x and y, S2 y (many-to-many, through a join table).
    private static func seriesStore() throws -> (PersistentContainer, URL) {
        let model = ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("views", .integer64)
                Relationship("author", to: "Author", inverse: "books")
                Relationship("series", to: "Series", inverse: "books")
            }
            Entity("Series") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "series", toMany: true)
                Relationship("tags", to: "Tag", inverse: "series", toMany: true)
            }
            Entity("Tag") {
                Attribute("name", .string)
                Relationship("series", to: "Series", inverse: "tags", toMany: true)
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-series-\(UUID().uuidString).sqlite")
        let container = try PersistentContainer(model: model, location: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            func insert(_ entity: String, _ values: [String: Any]) throws -> ManagedObject {
                let object = try context.insertNewObject(forEntityName: entity)
                for (key, value) in values { try object.setValue(value, forKey: key) }
                return object
            }
            let ana = try insert("Author", ["name": "Ana"]), bob = try insert("Author", ["name": "Bob"])
            _ = try insert("Author", ["name": "Cy"])
            let s1 = try insert("Series", ["name": "S1"]), s2 = try insert("Series", ["name": "S2"])
            let x = try insert("Tag", ["name": "x"]), y = try insert("Tag", ["name": "y"])
            try s1.addObject(x, toRelationship: "tags")
            try s1.addObject(y, toRelationship: "tags")
            try s2.addObject(y, toRelationship: "tags")
            for (title, author, series, views) in [("A1", ana, s1, 1), ("A2", ana, nil, 10), ("A3", ana, s1, 10),
                                                   ("B1", bob, s2, 10), ("B2", bob, s2, 10)] as [(String, ManagedObject, ManagedObject?, Int64)] {
                _ = try insert("Book", ["title": title, "views": views, "author": author] .merging(series.map { ["series": $0] } ?? [:]) { $1 })
            }
            try context.save()
        }
        return (container, url)
    }

    /// A to-one that may be nil between two to-manys (books.series.books): its
    /// nil is one nil element of the flattened collection, in SQL as in the evaluator.
    static let nilHopCases: [(format: String, expected: Set<String>)] = [
        ("books.series.books.@count == 5", ["Ana"]),  // 2 + 1 (A2's nil) + 2
        ("books.series.books.@count == 4", ["Bob"]),
        ("books.series.books.@count == 0", ["Cy"]),
        ("ANY books.series.books == nil", ["Ana"]),
        ("ALL books.series.books.views > 5", ["Bob", "Cy"]),
        ("NONE books.series.books.views < 5", ["Bob", "Cy"]),
        ("books.series.books.@sum.views == 22", ["Ana"]),
        ("SUBQUERY(books.series.books, $b, $b.views == nil).@count == 1", ["Ana"]),
        ("SUBQUERY(books.series, $s, $s == nil).@count == 1", ["Ana"]),
        // The many-to-many past the nullable to-one goes through its join table.
        ("books.series.tags.@count == 5", ["Ana"]),  // 2 + 1 (A2's nil) + 2
        ("books.series.tags.@count == 2", ["Bob"]),
        ("ANY books.series.tags.name == \"x\"", ["Ana"]),
        ("ANY books.series.tags == nil", ["Ana"]),
        ("ALL books.series.tags.name == \"y\"", ["Bob", "Cy"]),
        ("SUBQUERY(books.series.tags, $t, $t.name == nil).@count == 1", ["Ana"]),
    ]

    @Test("A nil to-one between to-manys is one nil element in SQL as in the evaluator", arguments: nilHopCases.indices)
    func nilToOneBetweenToManys(_ index: Int) throws {
        let row = Self.nilHopCases[index]
        let (container, url) = try Self.seriesStore()
        defer { FetchLibraryStore.remove(url) }
        let predicate = try FetchPredicate(format: row.format)
        let context = container.newBackgroundContext()
        let (fetched, evaluated) = try context.performAndWait {
            let name = { (object: ManagedObject) in object.value(forKey: "name") as? String ?? "?" }
            let fetched = Set(try context.fetch(FetchRequest(entityName: "Author", predicate: predicate)).map(name))
            let all = try context.fetch(FetchRequest(entityName: "Author"))
            return (fetched, Set(try all.filter { try predicate.evaluate(with: $0) }.map(name)))
        }
        #expect(fetched == evaluated, "\(row.format): SQL \(fetched), evaluator \(evaluated)")
        #expect(fetched == row.expected, "\(row.format)")
    }

    @Test("The level past a nullable to-one is LEFT JOINed and kept when it matched or the to-one is nil")
    func nilHopSQL() throws {
        let (container, url) = try Self.seriesStore()
        defer { FetchLibraryStore.remove(url) }
        let compiled = try PredicateSQLCompiler.compile(
            try FetchPredicate(format: "books.series.books.@count > 1"), entityName: "Author", schema: container.coordinator.schema)
        #expect(compiled.whereClause
            == "(SELECT COUNT(*) FROM ZBOOK t1 LEFT OUTER JOIN ZSERIES t2 ON t2.Z_PK = t1.ZSERIES"
            + " LEFT JOIN ZBOOK t3 ON t3.ZSERIES = t2.Z_PK"
            + " WHERE t1.ZAUTHOR = t0.Z_PK AND (t2.Z_PK IS NULL OR t3.Z_PK IS NOT NULL)) > ?")
    }

    @Test("A many-to-many past a nullable to-one LEFT JOINs its join table and destination together")
    func nilHopJoinTableSQL() throws {
        let (container, url) = try Self.seriesStore()
        defer { FetchLibraryStore.remove(url) }
        let schema = container.coordinator.schema
        let compiled = try PredicateSQLCompiler.compile(
            try FetchPredicate(format: "books.series.tags.@count > 1"), entityName: "Author", schema: schema)
        guard let series = schema.model.entityIndexByName["Series"],
              case let .joinTable(table, sourceColumn, destinationColumn, _)? = schema.entities[series].relationships.last else {
            Issue.record("Series.tags is not stored in a join table")
            return
        }
        #expect(compiled.whereClause
            == "(SELECT COUNT(*) FROM ZBOOK t1 LEFT OUTER JOIN ZSERIES t2 ON t2.Z_PK = t1.ZSERIES"
            + " LEFT JOIN (\(table) j3 JOIN ZTAG t3 ON t3.Z_PK = j3.\(destinationColumn)) ON j3.\(sourceColumn) = t2.Z_PK"
            + " WHERE t1.ZAUTHOR = t0.Z_PK AND (t2.Z_PK IS NULL OR t3.Z_PK IS NOT NULL)) > ?")
    }
}
