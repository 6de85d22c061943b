import BenchmarkData
import Faultline
import FaultlineBench

/// Sorting with and without an index: the same values in `views` (indexed)
/// and `score` (not), fetched sorted — every row, and the top 100 — against a
/// raw C loop running the same ORDER BY. Query plans show the index (or the
/// temporary B-tree) on both sides.
enum SortBenchmarks {
    static func make(rows: Int, stores: ArticleStores) -> [Benchmark] {
        var benchmarks: [Benchmark] = []
        for (index, key) in [("indexed", "views"), ("unindexed", "score")] {
            for limit in [0, 100] {
                let parameters: KeyValuePairs<String, ParameterValue> = [
                    "rows": .int(rows), "index": .string(index), "limit": .int(limit),
                ]
                let items = limit > 0 ? min(limit, rows) : rows
                let sql = "SELECT \(FetchingModel.columns) FROM \(FetchingModel.table) t0 ORDER BY t0.Z\(key.uppercased()) DESC"
                    + (limit > 0 ? " LIMIT \(limit)" : "")
                benchmarks.append(Benchmark(
                    "raw.sort", parameters: parameters, items: items,
                    queryPlans: { ["sort": try stores.store(rows).rawReader(sql).plan()] },
                    setUp: { ReadRun(try stores.store(rows).rawReader(sql)) },
                    measure: { run in run.result = try run.reader.run() },
                    verify: { run in try run.reader.verify(run.measured(), store: stores.store(rows)) }))
                var request = FetchRequest(entityName: FetchingModel.entity)
                request.sortDescriptors = [FetchSortDescriptor(key: key, ascending: false)]
                request.fetchLimit = limit
                request.returnsObjectsAsFaults = false
                benchmarks.append(Benchmark(
                    "sort.fetch", parameters: parameters, items: items, reference: "raw.sort",
                    queryPlans: {
                        let store = try stores.store(rows)
                        return ["sort": try store.plan(of: request, on: store.connection())]
                    },
                    setUp: { ReadRun(try stores.store(rows).freshContext()) },
                    measure: { run in
                        let context = run.reader
                        run.result = Int64(try context.performAndWait {
                            try context.fetch(request).reduce(0) { $0 &+ Int($1[ArticleKeys.views] ?? 0) }
                        })
                    },
                    verify: { run in
                        try FetchVerification.expect(
                            "the sorted objects' views", run.measured(), is: "SUM(t0.ZVIEWS)", store: stores.store(rows),
                            rest: "ORDER BY t0.Z\(key.uppercased()) DESC" + (limit > 0 ? " LIMIT \(limit)" : ""))
                    }))
            }
        }
        return benchmarks
    }
}
