import BenchmarkData
import Faultline
import FaultlineBench
import FaultlineSQLite

/// A grouped aggregate: the prefetch graph's books (1,000 authors × 100)
/// grouped by author, with the sum, count and maximum of their ranks per
/// group. `raw.grouped` is the C API running the `GROUP BY` statement;
/// `fetch.grouped` a dictionary fetch with `propertiesToGroupBy` and
/// expression descriptions (one statement of the same shape);
/// `fetch.grouped.inSwift` the books fetched as objects and aggregated in
/// Swift. Each returns the same checksum — per group, the author's key plus
/// the sum, count and maximum — verified against the store by plain SQL.
enum GroupedBenchmarks {
    static let rawSQL = "SELECT t0.ZAUTHOR, SUM(t0.ZRANK), COUNT(t0.ZTITLE), MAX(t0.ZRANK) FROM ZLEVEL1 t0 GROUP BY t0.ZAUTHOR"
    static let expected = """
        SELECT SUM(a + s + c + m) FROM \
        (SELECT ZAUTHOR a, SUM(ZRANK) s, COUNT(ZTITLE) c, MAX(ZRANK) m FROM ZLEVEL1 GROUP BY ZAUTHOR)
        """

    static func make(shape: GraphShape, store: @escaping () throws -> ObjectGraphStore) -> [Benchmark] {
        let books = shape.levelCounts.count > 1 ? shape.levelCounts[1] : 0
        let parameters: KeyValuePairs<String, ParameterValue> = ["graph": .string(shape.description)]
        let verify = { (result: Int64) throws in
            let verifier = try StoreVerifier(connection: Connection(.file(try store().url.path)))
            try verifier.expect("the grouped checksum", result, equals: try verifier.integer(expected))
        }
        var raw: RawArticleReader?
        return [
            Benchmark(
                "raw.grouped", parameters: parameters, items: books,
                setUp: { () throws -> ReadRun<RawArticleReader> in
                    if let raw { return ReadRun(raw) }
                    let made = try RawArticleReader(connection: Connection(.file(try store().url.path)), sql: rawSQL)
                    raw = made
                    return ReadRun(made)
                },
                measure: { run in run.result = try run.reader.run() },
                verify: { run in try verify(run.measured()) }),
            Benchmark(
                "fetch.grouped", parameters: parameters, items: books, reference: "raw.grouped",
                setUp: { ReadRun(try store().container.newBackgroundContext()) },
                measure: { run in
                    let context = run.reader
                    run.result = try context.performAndWait { try grouped(in: context) }
                },
                verify: { run in try verify(run.measured()) }),
            Benchmark(
                "fetch.grouped.inSwift", parameters: parameters, items: books, reference: "raw.grouped",
                setUp: { () throws -> ReadRun<ManagedObjectContext> in
                    let container = try store().container
                    container.coordinator.rowCache.removeAll()
                    return ReadRun(container.newBackgroundContext())
                },
                measure: { run in
                    let context = run.reader
                    run.result = try context.performAndWait { try groupedInSwift(in: context) }
                },
                verify: { run in try verify(run.measured()) }),
        ]
    }

    static func grouped(in context: ManagedObjectContext) throws -> Int64 {
        var request = FetchRequest(entityName: ObjectGraphModel.entityNames[1])
        request.propertiesToFetch = ["author"]
        request.propertiesToGroupBy = ["author"]
        request.expressionsToFetch = [
            try ExpressionDescription(name: "sum", format: "sum:(rank)", resultType: .integer64AttributeType),
            try ExpressionDescription(name: "count", format: "count:(title)", resultType: .integer64AttributeType),
            try ExpressionDescription(name: "max", format: "max:(rank)", resultType: .integer64AttributeType),
        ]
        var checksum: Int64 = 0
        for row in try context.fetchDictionaries(request) {
            checksum &+= (row["author"] as? ManagedObjectID)?.primaryKey ?? 0
            checksum &+= (row["sum"] as? Int64 ?? 0) &+ (row["count"] as? Int64 ?? 0) &+ (row["max"] as? Int64 ?? 0)
        }
        return checksum
    }

    static func groupedInSwift(in context: ManagedObjectContext) throws -> Int64 {
        var request = FetchRequest(entityName: ObjectGraphModel.entityNames[1])
        request.returnsObjectsAsFaults = false
        var groups: [Int64: (sum: Int64, count: Int64, max: Int64)] = [:]
        for book in try context.fetch(request) {
            guard let author = try book.objectID(forRelationshipNamed: "author")?.primaryKey else { continue }
            let rank = book[Keys.rank] ?? 0
            var group = groups[author] ?? (0, 0, .min)
            group.sum &+= rank
            if book[Keys.title] != nil { group.count += 1 }
            group.max = max(group.max, rank)
            groups[author] = group
        }
        return groups.reduce(0) { $0 &+ $1.key &+ $1.value.sum &+ $1.value.count &+ $1.value.max }
    }

    private enum Keys {
        static let rank = AttributeKey<Int64?>("rank")
        static let title = AttributeKey<String?>("title")
    }
}
