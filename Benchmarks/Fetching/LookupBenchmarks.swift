import BenchmarkData
import Faultline
import FaultlineBench
import Foundation

/// One object by its key, cold, for up to 10,000 keys in a random order: what
/// `existingObject(with:)` of an ID whose row is not cached costs — a fault
/// fired on its own, the detail view of a Core Data app — against the C loop
/// binding each key to `… WHERE t0.Z_PK = ?`, stepping once and reading every
/// column (`raw.lookup`). The keys are every key of the store shuffled by a
/// seeded generator, so both sides read the same rows in the same order.
/// `lookup.records` decodes the same rows into plain Swift structs: the floor
/// under `fetch.byKey`.
enum LookupBenchmarks {
    static let rawLookup = "SELECT \(FetchingModel.columns) FROM \(FetchingModel.table) t0 WHERE t0.Z_PK = ?"

    static func make(rows: Int, stores: ArticleStores) -> [Benchmark] {
        let lookups = min(10_000, rows)
        let parameters: KeyValuePairs<String, ParameterValue> = ["lookups": .int(lookups), "rows": .int(rows)]
        let keys = KeysOnce(rows: rows, count: lookups, stores: stores)
        // The store's own sum over the looked-up rows: what every line must give.
        func expectFullRowSum(_ what: String, _ checksum: Int64) throws {
            try FetchVerification.expect(
                what, checksum, is: FetchVerification.fullRowSum, store: stores.store(rows),
                rest: "WHERE t0.Z_PK IN (\(try keys.keys().map(String.init).joined(separator: ",")))")
        }
        return [
            Benchmark(
                "raw.lookup", parameters: parameters, items: lookups,
                setUp: { ReadRun(try stores.store(rows).rawReader(rawLookup, mode: .lookups(try keys.keys()))) },
                measure: { run in run.result = try run.reader.run() },
                verify: { run in try run.reader.verify(run.measured(), store: stores.store(rows)) }),
            Benchmark(
                "lookup.records", parameters: parameters, items: lookups, reference: "raw.lookup",
                setUp: { ReadRun(try RecordLookup(store: stores.store(rows), keys: keys.keys())) },
                measure: { run in run.result = Int64(try run.reader.readEach()) },
                verify: { run in try expectFullRowSum("the records' checksum", run.measured()) }),
            Benchmark(
                "fetch.byKey", parameters: parameters, items: lookups, reference: "raw.lookup",
                setUp: { () throws -> ReadRun<(ManagedObjectContext, [ManagedObjectID])> in
                    let ids = try keys.ids()
                    return ReadRun((try stores.store(rows).freshContext(), ids))
                },
                measure: { run in
                    let (context, ids) = run.reader
                    run.result = Int64(try context.performAndWait { try readEach(ids, in: context) })
                },
                verify: { run in try expectFullRowSum("fetch.byKey's checksum", run.measured()) },
                counters: { run in ["faultsFired": run.reader.0.counters.faultsFired] }),
        ]
    }

    /// Each object by its ID, every attribute read (`FetchBenchmarks.readAttributes`).
    static func readEach(_ ids: [ManagedObjectID], in context: ManagedObjectContext) throws -> Int {
        var checksum = 0
        for id in ids { checksum &+= FetchBenchmarks.readAttributes(of: try context.existingObject(with: id)) }
        return checksum
    }

    /// The shuffled IDs of one store size, read outside every clock and kept
    /// while that store lives (an ID names its store).
    final class KeysOnce {
        let rows: Int
        let count: Int
        let stores: ArticleStores
        private var cached: (store: ArticleStore, ids: [ManagedObjectID])?

        init(rows: Int, count: Int, stores: ArticleStores) {
            self.rows = rows
            self.count = count
            self.stores = stores
        }

        func ids() throws -> [ManagedObjectID] {
            let store = try stores.store(rows)
            if let cached, cached.store === store { return cached.ids }
            let context = store.freshContext()
            var all = try context.performAndWait { try context.fetchObjectIDs(FetchRequest(entityName: FetchingModel.entity)) }
            var random = SeededRandom(seed: 0x5EED_0F_CAFE)
            all.shuffle(using: &random)
            let ids = Array(all.prefix(count))
            cached = (store, ids)
            return ids
        }

        func keys() throws -> [Int64] { try ids().map(\.primaryKey) }
    }
}
