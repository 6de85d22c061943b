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
                setUp: { try stores.store(rows).rawReader(sql, mode: mode) },
                measure: { reader in blackHole(try reader.run()) }))
        }
        benchmarks.append(Benchmark(
            "fetch.records", parameters: parameters, items: rows, reference: "raw.fetch",
            setUp: { try stores.store(rows).recordFetch() },
            measure: { records in blackHole(try records.readAll()) }))
        let lines: [(String, String, (ManagedObjectContext) throws -> Int)] = [
            ("fetch.faults", "raw.fetch", { context in try context.fetch(request()).count }),
            ("fetch.faults.touchOne", "raw.fetch", touchOne),
            ("fetch.full", "raw.fetch", readFull),
            ("fetch.dictionaries", "raw.fetch", { context in try context.fetchDictionaries(request()).count }),
            ("fetch.objectIDs", "raw.fetch.ids", { context in try context.fetchObjectIDs(request()).count }),
            ("fetch.count", "raw.count", { context in try context.count(for: request()) }),
        ]
        for (name, reference, work) in lines {
            benchmarks.append(Benchmark(
                name, parameters: parameters, items: rows, reference: reference,
                setUp: { try stores.store(rows).freshContext() },
                measure: { context in
                    let result = try context.performAndWait { try work(context) }
                    blackHole(result)
                },
                counters: { context in ["faultsFired": context.counters.faultsFired] }))
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
        for article in try context.fetch(request(asFaults: false)) {
            checksum &+= Int(article.objectID.primaryKey)
            checksum &+= article[ArticleKeys.title]?.utf8.count ?? 0
            checksum &+= article[ArticleKeys.body]?.utf8.count ?? 0
            checksum &+= Int(article[ArticleKeys.views] ?? 0)
            checksum &+= Int(article[ArticleKeys.score] ?? 0)
            checksum &+= Int(article[ArticleKeys.created]?.timeIntervalSinceReferenceDate ?? 0)
            checksum &+= article[ArticleKeys.searchTitle]?.utf8.count ?? 0
        }
        return checksum
    }
}
