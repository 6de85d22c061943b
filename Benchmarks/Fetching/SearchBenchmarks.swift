import BenchmarkData
import Faultline
import FaultlineBench

/// A canonical search: `title CONTAINS[cd] %@` and `title BEGINSWITH[cd] %@`,
/// which Faultline compiles to the indexed `canonical:` column with the
/// argument folded once, against the same search as a raw `lower()`/`LIKE`
/// scan reading every column of the matching rows. The search terms are
/// plain ASCII, so both sides find the same rows. Query plans of both are
/// recorded.
enum SearchBenchmarks {
    struct Search {
        let name: String
        let format: String
        let term: String
        /// The raw side's LIKE pattern for `term`.
        let pattern: String
    }

    static let searches = [
        Search(name: "contains", format: "title CONTAINS[cd] %@", term: "Merge Policy", pattern: "%merge policy%"),
        Search(name: "beginsWith", format: "title BEGINSWITH[cd] %@", term: "ARTICLE 12", pattern: "article 12%"),
    ]

    static let rawSQL = "SELECT \(FetchingModel.columns) FROM \(FetchingModel.table) t0 WHERE lower(t0.ZTITLE) LIKE ?"

    static func make(rows: Int, stores: ArticleStores) -> [Benchmark] {
        var benchmarks: [Benchmark] = []
        for search in searches {
            let parameters: KeyValuePairs<String, ParameterValue> = ["rows": .int(rows), "op": .string(search.name)]
            benchmarks.append(Benchmark(
                "raw.search.lowerLike", parameters: parameters, items: rows,
                queryPlans: { ["search": try stores.store(rows).rawReader(rawSQL, mode: .rowsMatching(search.pattern)).plan()] },
                setUp: { ReadRun(try stores.store(rows).rawReader(rawSQL, mode: .rowsMatching(search.pattern))) },
                measure: { run in run.result = try run.reader.run() },
                verify: { run in try run.reader.verify(run.measured(), store: stores.store(rows)) }))
            benchmarks.append(Benchmark(
                "search.canonical", parameters: parameters, items: rows, reference: "raw.search.lowerLike",
                queryPlans: {
                    let store = try stores.store(rows)
                    return ["search": try store.plan(of: try request(search), on: store.connection())]
                },
                setUp: { () throws -> ReadRun<(ManagedObjectContext, FetchRequest)> in
                    ReadRun((try stores.store(rows).freshContext(), try request(search)))
                },
                measure: { run in
                    let (context, request) = run.reader
                    run.result = Int64(try context.performAndWait { try context.fetch(request).count })
                },
                // The terms are ASCII: the raw side's LIKE finds exactly the rows the search should.
                verify: { run in
                    try FetchVerification.expect(
                        "the objects found", run.measured(), is: FetchVerification.rowCount, store: stores.store(rows),
                        rest: "WHERE lower(t0.ZTITLE) LIKE '\(search.pattern)'")
                }))
        }
        return benchmarks
    }

    static func request(_ search: Search) throws -> FetchRequest {
        try FetchRequest(entityName: FetchingModel.entity, format: search.format, search.term)
    }
}
