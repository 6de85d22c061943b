import BenchmarkData
import CSQLiteReference
import Faultline
import FaultlineBench
import FaultlineSQLite
import Foundation

/// Reading a store's persistent history — what a server following a Core
/// Data app's changes does (`store history --json`, `fetchHistory(after:)`) —
/// against the C loop reading the same change rows joined to their
/// transactions (`raw.history`). The store records `rows` article inserts in
/// saves of 100, then an update of every tenth article's views, in saves of
/// 100: one change row per insert and per update, every update with its mask.
enum HistoryBenchmarks {
    static let rawHistory = "SELECT c.Z_PK, c.ZTRANSACTIONID, c.ZCHANGETYPE, c.ZENTITY, c.ZENTITYPK, c.ZCOLUMNS, t.ZTIMESTAMP "
        + "FROM ACHANGE c JOIN ATRANSACTION t ON t.Z_PK = c.ZTRANSACTIONID ORDER BY c.ZTRANSACTIONID, c.Z_PK"

    static func make(rows: Int, stores: HistoryStores) -> [Benchmark] {
        let changes = rows + rows / 10
        let parameters: KeyValuePairs<String, ParameterValue> = ["rows": .int(rows)]
        return [
            Benchmark(
                "raw.history", parameters: parameters, items: changes,
                setUp: { () throws -> ReadRun<HistoryStore> in ReadRun(try stores.store(rows)) },
                measure: { run in run.result = try run.reader.readRaw() },
                verify: { run in
                    guard try run.measured() == Int64(changes) else {
                        throw FetchingError("raw.history read \(try run.measured()) change rows, expected \(changes)")
                    }
                }),
            Benchmark(
                "history.fetch", parameters: parameters, items: changes, reference: "raw.history",
                setUp: { () throws -> ReadRun<HistoryStore> in ReadRun(try stores.store(rows)) },
                measure: { run in
                    let transactions = try run.reader.container.coordinator
                        .execute(.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
                    var count: Int64 = 0
                    for transaction in transactions {
                        for change in transaction.changes where change.changeType != .update || change.updatedProperties == ["views"] {
                            count += 1
                        }
                    }
                    run.result = count
                },
                verify: { run in
                    guard try run.measured() == Int64(changes) else {
                        throw FetchingError("history.fetch read \(try run.measured()) changes (inserts, and updates naming views), expected \(changes)")
                    }
                }),
        ]
    }
}

/// A store recording persistent history, filled once per size.
final class HistoryStore: SizedStore {
    let rows: Int
    let url: URL
    let container: PersistentContainer
    private var raw: (connection: Connection, statements: RawStatements)?

    init(rows: Int) throws {
        self.rows = rows
        url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-history-\(rows)-\(UUID().uuidString).sqlite")
        container = try PersistentContainer(model: FetchingModel.model(), location: .file(url), persistentHistoryTracking: true)
        let dataset = ArticleDataset(count: rows)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var articles: [ManagedObject] = []
            for index in 0..<rows {
                let article = try context.insertNewObject(forEntityName: FetchingModel.entity)
                try article.setValue(dataset.titles[index], forKey: "title")
                try article.setValue(dataset.views[index], forKey: "views")
                articles.append(article)
                if (index + 1) % 100 == 0 { try context.save() }
            }
            try context.save()
            for (index, article) in articles.enumerated() where index % 10 == 0 {
                try article.setValue(dataset.views[index] + 1, forKey: "views")
                if (index / 10 + 1) % 100 == 0 { try context.save() }
            }
            try context.save()
        }
    }

    /// The raw loop over every change row with its transaction; returns how many it read.
    func readRaw() throws -> Int64 {
        if raw == nil {
            let connection = try Connection(.file(url.path))
            raw = (connection, try RawStatements([HistoryBenchmarks.rawHistory], on: connection))
        }
        guard let raw else { return 0 }
        var counters = fl_ref_counters()
        var code: Int32 = SQLITE_OK
        _ = fl_ref_read_all(raw.statements[0], &counters, &code)
        SQLiteCounters.recordExternalWork(counters)
        guard code == SQLITE_OK else { throw FetchingError("raw.history failed with SQLite code \(code)") }
        return counters.rows_returned
    }

    func remove() {
        raw = nil
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}

typealias HistoryStores = StoresBySize<HistoryStore>
