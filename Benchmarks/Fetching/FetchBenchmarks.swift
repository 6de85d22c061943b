import BenchmarkData
import Faultline
import Foundation
import FaultlineBench

/// Fetching N articles five ways, each a ratio to a raw C loop doing the same
/// reads: faults (and faults then one attribute touched), full objects with
/// every attribute read through typed keys, dictionaries and object IDs
/// against `raw.fetch` (every column of every row) or `raw.fetch.ids`, and
/// `count` against a raw `SELECT COUNT(*)`. `fetch.records` reads the rows into
/// plain Swift structs: the floor the object lines stand on.
enum FetchBenchmarks {
    static let rawRows = "SELECT \(FetchingModel.columns) FROM \(FetchingModel.table) t0"
    static let rawIDs = "SELECT t0.Z_ENT, t0.Z_PK FROM \(FetchingModel.table) t0"
    static let rawCount = "SELECT COUNT(*) FROM \(FetchingModel.table) t0"

    static func make(rows: Int, stores: ArticleStores) -> [Benchmark] {
        let parameters: KeyValuePairs<String, ParameterValue> = ["rows": .int(rows)]
        var benchmarks: [Benchmark] = []
        for (name, sql, mode) in [("raw.fetch", rawRows, RawArticleReader.Mode.rows),
                                  ("raw.fetch.ids", rawIDs, .rows), ("raw.count", rawCount, .scalar)] {
            benchmarks.append(Benchmark(
                name, parameters: parameters, items: rows,
                setUp: { ReadRun(try stores.store(rows).rawReader(sql, mode: mode)) },
                measure: { run in run.result = try run.reader.run() },
                verify: { run in try run.reader.verify(run.measured(), store: stores.store(rows)) }))
        }
        benchmarks.append(Benchmark(
            "fetch.records", parameters: parameters, items: rows, reference: "raw.fetch",
            setUp: { ReadRun(try stores.store(rows).recordFetch()) },
            measure: { run in run.result = Int64(try run.reader.readAll()) },
            verify: { run in
                try FetchVerification.expect("the records' checksum", run.measured(), is: FetchVerification.fullRowSum, store: stores.store(rows))
            }))
        // Each line's work, and the aggregate over the store its result must equal.
        let lines: [(String, String, (ManagedObjectContext) throws -> Int, String)] = [
            ("fetch.faults", "raw.fetch", { context in try context.fetch(request()).count }, FetchVerification.rowCount),
            ("fetch.faults.touchOne", "raw.fetch", touchOne, FetchVerification.titleBytes),
            ("fetch.full", "raw.fetch", readFull, FetchVerification.fullRowSum),
            ("fetch.dictionaries", "raw.fetch", { context in try context.fetchDictionaries(request()).count },
             FetchVerification.rowCount),
            ("fetch.objectIDs", "raw.fetch.ids", { context in try context.fetchObjectIDs(request()).count },
             FetchVerification.rowCount),
            ("fetch.count", "raw.count", { context in try context.count(for: request()) }, FetchVerification.rowCount),
        ]
        for (name, reference, work, expected) in lines {
            benchmarks.append(Benchmark(
                name, parameters: parameters, items: rows, reference: reference,
                setUp: { ReadRun(try stores.store(rows).freshContext()) },
                measure: { run in
                    let context = run.reader
                    run.result = Int64(try context.performAndWait { try work(context) })
                },
                verify: { run in
                    try FetchVerification.expect("\(name)'s result", run.measured(), is: expected, store: stores.store(rows))
                },
                counters: { run in ["faultsFired": run.reader.counters.faultsFired] }))
        }
        return benchmarks
    }

    static func request(asFaults: Bool = true) -> FetchRequest {
        var request = FetchRequest(entityName: FetchingModel.entity)
        request.returnsObjectsAsFaults = asFaults
        return request
    }

    /// Faults, then one attribute of each read (firing it from the row cache).
    static func touchOne(_ context: ManagedObjectContext) throws -> Int {
        var checksum = 0
        for article in try context.fetch(request()) {
            checksum &+= article[ArticleKeys.title]?.utf8.count ?? 0
        }
        return checksum
    }

    /// Full objects, every attribute of every object read through typed keys.
    static func readFull(_ context: ManagedObjectContext) throws -> Int {
        var checksum = 0
        for article in try context.fetch(request(asFaults: false)) { checksum &+= readAttributes(of: article) }
        return checksum
    }

    /// Every attribute of `article` read through typed keys, as one checksum
    /// (`FetchVerification.fullRowSum` of its row).
    @inline(__always)
    static func readAttributes(of article: ManagedObject) -> Int {
        var checksum = Int(article.objectID.primaryKey)
        checksum &+= article[ArticleKeys.title]?.utf8.count ?? 0
        checksum &+= article[ArticleKeys.body]?.utf8.count ?? 0
        checksum &+= Int(article[ArticleKeys.views] ?? 0)
        checksum &+= Int(article[ArticleKeys.score] ?? 0)
        checksum &+= Int(article[ArticleKeys.created]?.timeIntervalSinceReferenceDate ?? 0)
        checksum &+= article[ArticleKeys.searchTitle]?.utf8.count ?? 0
        return checksum
    }
}
