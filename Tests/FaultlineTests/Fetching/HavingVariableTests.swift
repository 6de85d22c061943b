import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// `$name` in a `havingPredicate` names the fetched column of that name, as
/// Core Data reads `NSExpression(forVariable: "count")` there (CoreDataPlus's
/// `test_InvestigationGroupBy`: `$count > 100` over `count:(maker)`).
@Suite("A HAVING predicate's $variable names a fetched expression or key path")
struct HavingVariableTests {
    static func request(having format: String) throws -> FetchRequest {
        var request = GroupedFetchTests.books([try GroupedFetchTests.expression("count", "count:(title)", .integer64AttributeType)])
        request.sortDescriptors = [FetchSortDescriptor(key: "author.name")]
        // Ana keeps her 3 books, Bob 2 of his 3.
        request.predicate = try FetchPredicate(format: "views > 4")
        request.havingPredicate = try FetchPredicate(format: format)
        return request
    }

    static func authors(_ rows: [[String: Any]]) -> [String] { rows.compactMap { $0["author.name"] as? String } }

    @Test("$count >= 3 keeps the groups count >= 3 keeps, with the same HAVING on the column's SQL")
    func expressionVariable() throws {
        let container = try FetchLibraryStore.make(at: .inMemory)
        let context = container.newBackgroundContext()
        let byName = try context.performAndWait { try context.fetchDictionaries(Self.request(having: "count >= 3")) }
        // The log is process-wide (tests running beside this one add theirs); the coordinator's counter is this store's.
        let before = container.coordinator.sqlCounters.statementsExecuted
        let (rows, statements) = try StatementLog.record {
            try context.performAndWait { try context.fetchDictionaries(Self.request(having: "$count >= 3")) }
        }
        #expect(Self.authors(rows) == Self.authors(byName))
        #expect(Self.authors(rows) == ["Ana"])
        #expect(container.coordinator.sqlCounters.statementsExecuted == before + 1)
        #expect(statements.contains(
            "SELECT t1.ZNAME, COUNT(t0.ZTITLE) FROM ZBOOK t0 LEFT OUTER JOIN ZAUTHOR t1 ON t1.Z_PK = t0.ZAUTHOR "
                + "WHERE t0.ZVIEWS > ? GROUP BY t1.ZNAME HAVING COUNT(t0.ZTITLE) >= ? ORDER BY t1.ZNAME ASC"), "\(statements)")
    }

    @Test("A computed column without a resultType, Core Data's default, compares as its expression in HAVING, by name and as $name",
          arguments: ["count >= 3", "$count >= 3", "count:(title) >= 3"])
    func untypedExpression(_ format: String) throws {
        let container = try FetchLibraryStore.make(at: .inMemory)
        let context = container.newBackgroundContext()
        var request = GroupedFetchTests.books([try ExpressionDescription(name: "count", format: "count:(title)")])
        request.sortDescriptors = [FetchSortDescriptor(key: "author.name")]
        request.predicate = try FetchPredicate(format: "views > 4")
        request.havingPredicate = try FetchPredicate(format: format)
        let rows = try context.performAndWait { try context.fetchDictionaries(request) }
        #expect(Self.authors(rows) == ["Ana"])
        #expect(rows.first?["count"] as? Int64 == 3)
        // An untyped min: of a string attribute compares as text.
        request.expressionsToFetch = [try ExpressionDescription(name: "earliest", format: "min:(title)")]
        request.havingPredicate = try FetchPredicate(format: "earliest > 'Cz'")
        #expect(Self.authors(try context.performAndWait { try context.fetchDictionaries(request) }) == ["Bob"])
    }

    @Test("$author.name names the fetched key path author.name")
    func keyPathVariable() throws {
        let container = try FetchLibraryStore.make(at: .inMemory)
        let context = container.newBackgroundContext()
        let rows = try context.performAndWait { try context.fetchDictionaries(Self.request(having: "$author.name == 'Bob'")) }
        #expect(Self.authors(rows) == ["Bob"])
    }

    @Test("A $variable naming nothing fetched is still unsubstituted", arguments: ["$bogus > 1", "$title == 'x'", "$count.total > 1"])
    func unknown(_ format: String) throws {
        let container = try FetchLibraryStore.make(at: .inMemory)
        let context = container.newBackgroundContext()
        let name = String(format.dropFirst().prefix { $0 != " " && $0 != "." })
        #expect(throws: FetchPredicateError.unsubstitutedVariable(name: name)) {
            try context.performAndWait { try context.fetchDictionaries(Self.request(having: format)) }
        }
    }
}
