import BenchmarkData
import CSQLiteReference
import FaultlineSQLite
import Foundation

/// The raw reference: the controllers' query run again by hand, once per
/// controller, each row's key, group and rank read by a C loop
/// (`fl_ref_read_all`) — what re-running the query after a change costs at
/// the floor, before any difference is computed.
final class RawRequery {
    private let connection: Connection
    private let prepared: RawStatements
    let url: URL

    init(rows: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-observing-raw-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: try SeededStores.shared.store(rows: rows), to: url)
        connection = try Connection(.file(url.path))
        prepared = try RawStatements([ObservingModel.rawQuery], on: connection)
    }

    /// Runs the query `times` times; returns the rows read.
    func run(times: Int) throws -> Int {
        var rows = 0
        for _ in 0..<times {
            var counters = fl_ref_counters()
            var code: Int32 = SQLITE_OK
            _ = fl_ref_read_all(prepared[0], &counters, &code)
            SQLiteCounters.recordExternalWork(counters)
            guard code == SQLITE_OK else { throw ObservingError("raw.requery failed with SQLite code \(code)") }
            rows += Int(counters.rows_returned)
        }
        return rows
    }

    func remove() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}
