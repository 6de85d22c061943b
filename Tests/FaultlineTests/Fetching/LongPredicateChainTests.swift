import Foundation
import Testing
@testable import Faultline

/// SQLite refuses an expression more than 1,000 levels deep and nests a flat
/// `a OR b OR …` one level per operator; the evaluator has no such limit. A
/// long chain compiles to a balanced tree, so the store runs what memory runs.
@Suite("Long AND and OR chains run in SQL as in the evaluator")
struct LongPredicateChainTests {
    static func entries() throws -> (PersistentContainer, URL, ManagedObjectContext) {
        let model = ManagedObjectModel { Entity("Entry") { Attribute("score", .integer64) } }
        let (container, url) = try LibraryModel.container(model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for score in 0..<20 { try context.insertNewObject(forEntityName: "Entry").setValue(score, forKey: "score") }
            try context.save()
        }
        return (container, url, context)
    }

    @Test("2,000 ORed and 5,000 ANDed comparisons select what the evaluator selects", arguments: [
        (0..<2000).map { "score == \($0 * 7 + 3)" }.joined(separator: " OR "),
        (0..<5000).map { "score != \($0 % 9 * 2 + 1)" }.joined(separator: " AND "),
    ])
    func longChains(_ format: String) throws {
        let (_, url, context) = try Self.entries()
        defer { LibraryModel.remove(url) }
        try context.performAndWait {
            let predicate = try FetchPredicate(format: format)
            let fetched = try context.fetch(FetchRequest(entityName: "Entry", predicate: predicate))
            let evaluated = try context.fetch(FetchRequest(entityName: "Entry")).filter { try predicate.evaluate(with: $0) }
            #expect(Set(fetched.map(\.objectID)) == Set(evaluated.map(\.objectID)))
            #expect(!fetched.isEmpty && fetched.count < 20)
        }
    }

    @Test("A short chain keeps its flat SQL; a long one is grouped")
    func shape() throws {
        let (container, url, context) = try Self.entries()
        defer { LibraryModel.remove(url) }
        try context.performAndWait {
            func sql(_ format: String) throws -> String {
                let (fetch, _) = try context.compiledFetch(FetchRequest(entityName: "Entry", predicate: try FetchPredicate(format: format)))
                return fetch.rowsStatement(in: container.coordinator.plans[fetch.entityIndex])
            }
            #expect(try sql("score == 1 OR score == 2 OR score == 3").hasSuffix("WHERE (t0.ZSCORE = ? OR t0.ZSCORE = ? OR t0.ZSCORE = ?)"))
            let long = try sql((1...9).map { "score == \($0)" }.joined(separator: " OR "))
            #expect(long.hasSuffix("WHERE ((t0.ZSCORE = ? OR t0.ZSCORE = ? OR t0.ZSCORE = ? OR t0.ZSCORE = ?) OR "
                + "(t0.ZSCORE = ? OR t0.ZSCORE = ? OR t0.ZSCORE = ? OR t0.ZSCORE = ? OR t0.ZSCORE = ?))"), "\(long)")
        }
    }
}
