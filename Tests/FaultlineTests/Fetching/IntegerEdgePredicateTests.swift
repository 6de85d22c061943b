import Foundation
import Testing
@testable import Faultline

/// Arithmetic on the extreme integers: SQLite's `abs()` of the smallest one
/// fails the whole statement ("integer overflow") where the evaluator answers
/// 2^63 as a double; each predicate must select the same objects both ways.
@Suite("Predicates over the extreme integers: SQL agrees with the evaluator")
struct IntegerEdgePredicateTests {
    static let scores: [Int64] = [.min, .min + 1, -5, 0, 7, .max]

    @Test("Each predicate selects the same scores in SQL as in the evaluator", arguments: [
        "abs:(score) > 0", "abs:(score) > 9223372036854775806", "abs:(score) == 5", "-score > 0", "abs:(score - 0) >= 7",
    ])
    func agree(_ format: String) throws {
        let model = ManagedObjectModel { Entity("Entry") { Attribute("score", .integer64) } }
        let (container, url) = try LibraryModel.container(model)
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for score in Self.scores { try context.insertNewObject(forEntityName: "Entry").setValue(score, forKey: "score") }
            let predicate = try FetchPredicate(format: format)
            func scores(_ objects: [ManagedObject]) -> Set<Int64> { Set(objects.compactMap { $0.value(forKey: "score") as? Int64 }) }
            let request = FetchRequest(entityName: "Entry", predicate: predicate)
            let evaluated = scores(try context.fetch(request))
            try context.save()
            context.reset()
            let fetched = scores(try context.fetch(request))
            #expect(fetched == evaluated)
            #expect(!fetched.isEmpty)
        }
    }
}
