import Foundation
import Testing
@testable import Faultline

/// Dictionary fetches that group and aggregate in SQL, as Core Data's
/// `propertiesToGroupBy`, `NSExpressionDescription` and `havingPredicate`:
/// one `SELECT … GROUP BY … HAVING` statement (recorded from the statement
/// cache of an in-memory store), whose values equal the same aggregates
/// computed in Swift over the fetched objects.
@Suite("Grouped dictionary fetches: aggregates, GROUP BY and HAVING in one statement")
struct GroupedFetchTests {
    static func expression(_ name: String, _ format: String, _ type: AttributeType) throws -> ExpressionDescription {
        try ExpressionDescription(name: name, format: format, resultType: type)
    }

    /// Books grouped by `keyPath` (fetched too), computing `expressions`.
    static func books(groupedBy keyPath: String = "author.name", _ expressions: [ExpressionDescription]) -> FetchRequest {
        var request = FetchRequest(entityName: "Book")
        request.propertiesToFetch = [keyPath]
        request.propertiesToGroupBy = [keyPath]
        request.expressionsToFetch = expressions
        return request
    }

    /// Whether the store's one connection has run `sql`.
    static func ran(_ sql: String, in container: PersistentContainer) throws -> Bool {
        try container.coordinator.writer.withConnection { $0.statementCache.contains(sql) }
    }

    @Test("Books by author: sums, counts, averages, maxima and arithmetic over them equal Swift's over the objects")
    func byAuthor() throws {
        let container = try FetchLibraryStore.make(at: .inMemory)
        let context = container.newBackgroundContext()
        var request = Self.books([
            try Self.expression("views", "sum:(views)", .integer64AttributeType),
            try Self.expression("count", "count:(title)", .integer64AttributeType),
            try Self.expression("price", "average:(price)", .doubleAttributeType),
            try Self.expression("top", "max:(views)", .integer64AttributeType),
            try Self.expression("doubled", "sum:(views) * 2", .integer64AttributeType),
        ])
        request.sortDescriptors = [FetchSortDescriptor(key: "author.name")]
        let before = container.coordinator.writer.counters.statementsExecuted
        let rows = try context.performAndWait { try context.fetchDictionaries(request) }
        #expect(container.coordinator.writer.counters.statementsExecuted == before + 1)
        #expect(try Self.ran(
            "SELECT t1.ZNAME, SUM(t0.ZVIEWS), COUNT(t0.ZTITLE), AVG(t0.ZPRICE), MAX(t0.ZVIEWS), (SUM(t0.ZVIEWS) * ?) "
                + "FROM ZBOOK t0 LEFT OUTER JOIN ZAUTHOR t1 ON t1.Z_PK = t0.ZAUTHOR GROUP BY t1.ZNAME ORDER BY t1.ZNAME ASC",
            in: container))
        // Read on the context's queue, into plain values.
        let books: [(author: String, views: Int64, price: Double?)] = try context.performAndWait {
            try context.fetch(FetchRequest(entityName: "Book")).map { book in
                ((book.value(forKey: "author") as? ManagedObject)?.value(forKey: "name") as? String ?? "",
                 book.value(forKey: "views") as? Int64 ?? 0, book.value(forKey: "price") as? Double)
            }
        }
        let groups = Dictionary(grouping: books, by: \.author)
        #expect(rows.map { $0["author.name"] as? String } == ["Ana", "Bob"])
        for row in rows {
            let members = try #require(groups[row["author.name"] as? String ?? ""])
            let views = members.map(\.views)
            let prices = members.compactMap(\.price)
            #expect(row["views"] as? Int64 == views.reduce(0, +))
            #expect(row["count"] as? Int64 == Int64(members.count))
            #expect(abs((row["price"] as? Double ?? 0) - prices.reduce(0, +) / Double(prices.count)) < 1e-9)
            #expect(row["top"] as? Int64 == views.max())
            #expect(row["doubled"] as? Int64 == 2 * views.reduce(0, +))
        }
    }

    @Test("HAVING keeps the groups it matches, by an expression's name or an aggregate of its own; bindings in SELECT, WHERE and HAVING order")
    func having() throws {
        let container = try FetchLibraryStore.make(at: .inMemory)
        let context = container.newBackgroundContext()
        var request = Self.books([try Self.expression("views", "sum:(views)", .integer64AttributeType)])
        request.havingPredicate = try FetchPredicate(format: "views > 90")
        #expect(try context.performAndWait { try context.fetchDictionaries(request) }.map { $0["author.name"] as? String } == ["Bob"])
        request.havingPredicate = try FetchPredicate(format: "count:(title) >= 3 AND max:(views) < 60")
        #expect(try context.performAndWait { try context.fetchDictionaries(request) }.map { $0["author.name"] as? String } == ["Ana"])

        request.predicate = try FetchPredicate(format: "views > %@", 4)
        request.expressionsToFetch.append(ExpressionDescription(
            name: "plus", expression: try FetchExpression(format: "sum:(views) + %@", arguments: [.int(1000)]),
            resultType: .integer64AttributeType))
        request.havingPredicate = try FetchPredicate(format: "views > %@", 100)
        let rows = try context.performAndWait { try context.fetchDictionaries(request) }
        #expect(rows.count == 1)
        #expect(rows.first?["author.name"] as? String == "Bob")
        #expect(rows.first?["views"] as? Int64 == 105)
        #expect(rows.first?["plus"] as? Int64 == 1105)
    }

    @Test("Grouping and aggregating through to-ones: books by their author's publisher, the oldest author's age")
    func throughToOnes() throws {
        let container = try FetchLibraryStore.make(at: .inMemory)
        let context = container.newBackgroundContext()
        var request = Self.books(groupedBy: "author.publisher.name", [
            try Self.expression("views", "sum:(views)", .integer64AttributeType),
            try Self.expression("oldest", "max:(author.age)", .integer64AttributeType),
        ])
        request.sortDescriptors = [FetchSortDescriptor(key: "author.publisher.name")]
        let rows = try context.performAndWait { try context.fetchDictionaries(request) }
        #expect(rows.map { $0["author.publisher.name"] as? String } == ["Orbit", "Tor"])
        #expect(rows.map { $0["views"] as? Int64 } == [80, 105])
        #expect(rows.map { $0["oldest"] as? Int64 } == [40, 25])
    }

    @Test("Without grouping, aggregates run over every matching row: one row; count:(a to-one) counts the rows that have one")
    func whole() throws {
        let container = try FetchLibraryStore.make(at: .inMemory)
        let context = container.newBackgroundContext()
        var request = FetchRequest(entityName: "Book")
        request.expressionsToFetch = [
            try Self.expression("count", "count:(title)", .integer64AttributeType),
            try Self.expression("views", "sum:(views)", .integer64AttributeType),
            try Self.expression("first", "min:(published)", .dateAttributeType),
            try Self.expression("authored", "count:(author)", .integer64AttributeType),
        ]
        let rows = try context.performAndWait { try context.fetchDictionaries(request) }
        let authored = try context.performAndWait {
            try context.fetch(FetchRequest(entityName: "Book")).filter { $0.value(forKey: "author") != nil }.count
        }
        #expect(rows.count == 1)
        #expect(rows.first?["authored"] as? Int64 == Int64(authored))
        #expect(rows.first?["count"] as? Int64 == 6)
        #expect(rows.first?["views"] as? Int64 == 185)
        #expect(rows.first?["first"] as? Date == Library.day("2018-01-01"))
    }

    @Test("A fetched key path outside propertiesToGroupBy is refused, as Core Data refuses it")
    func ungrouped() throws {
        let container = try FetchLibraryStore.make(at: .inMemory)
        let context = container.newBackgroundContext()
        var request = FetchRequest(entityName: "Book")
        request.propertiesToFetch = ["title"]
        request.propertiesToGroupBy = ["author.name"]
        #expect(throws: FetchError.ungroupedProperty(entity: "Book", keyPath: "title")) {
            try context.performAndWait { try context.fetchDictionaries(request) }
        }
    }
    @Test("An expression without a result type (Core Data's default, undefined) reads back as SQLite holds it: a count and a sum of integers as integers, an average as a double, a max of text as text")
    func undefinedResultType() throws {
        let container = try FetchLibraryStore.make(at: .inMemory)
        let context = container.newBackgroundContext()
        var request = Self.books([
            try ExpressionDescription(name: "count", format: "count:(title)"),
            try ExpressionDescription(name: "views", format: "sum:(views)"),
            try ExpressionDescription(name: "price", format: "average:(price)"),
            try ExpressionDescription(name: "last", format: "max:(title)"),
        ])
        request.sortDescriptors = [FetchSortDescriptor(key: "author.name")]
        let rows = try context.performAndWait { try context.fetchDictionaries(request) }
        let typed = Self.books([
            try Self.expression("count", "count:(title)", .integer64AttributeType),
            try Self.expression("views", "sum:(views)", .integer64AttributeType),
            try Self.expression("price", "average:(price)", .doubleAttributeType),
            try Self.expression("last", "max:(title)", .stringAttributeType),
        ]).withSort("author.name")
        let expected = try context.performAndWait { try context.fetchDictionaries(typed) }
        #expect(!rows.isEmpty)
        #expect(rows.map { $0["count"] as? Int64 } == expected.map { $0["count"] as? Int64 })
        #expect(rows.map { $0["views"] as? Int64 } == expected.map { $0["views"] as? Int64 })
        #expect(rows.map { $0["price"] as? Double } == expected.map { $0["price"] as? Double })
        #expect(rows.map { $0["last"] as? String } == expected.map { $0["last"] as? String })
        #expect(rows.allSatisfy { $0["count"] is Int64 && $0["last"] is String })
    }
}

private extension FetchRequest {
    func withSort(_ key: String) -> FetchRequest {
        var request = self
        request.sortDescriptors = [FetchSortDescriptor(key: key)]
        return request
    }
}
