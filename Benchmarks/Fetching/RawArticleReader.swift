import BenchmarkData
import CSQLiteReference
import FaultlineBench
import FaultlineSQLite

/// The raw side: one statement prepared by hand on a plain connection to the
/// store file, run by a C loop inside the clock (`fl_ref_read_all`,
/// `fl_ref_read_all_text` with a bound text, `fl_ref_scalar` or
/// `fl_ref_lookup` with one bound key after another), its work
/// added to the process counters the harness reads.
final class RawArticleReader {
    enum Mode {
        /// Every column of every row.
        case rows
        /// Every row, with `argument` bound to parameter 1.
        case rowsMatching(String)
        /// One integer (`SELECT COUNT(*)`).
        case scalar
        /// Each key bound to parameter 1 in turn, its row read (`fl_ref_lookup`).
        case lookups([Int64])
    }

    let sql: String
    private let connection: Connection
    private let prepared: RawStatements
    private var statement: OpaquePointer { prepared[0] }
    let mode: Mode
    private let argument: [CChar]

    convenience init(store: ArticleStore, sql: String, mode: Mode = .rows) throws {
        try self.init(connection: store.connection(), sql: sql, mode: mode)
    }

    /// The statement on `connection`, a plain connection to any store file.
    init(connection: Connection, sql: String, mode: Mode = .rows) throws {
        self.sql = sql
        self.mode = mode
        self.connection = connection
        if case .rowsMatching(let text) = mode { argument = Array(text.utf8CString) } else { argument = [0] }
        prepared = try RawStatements([sql], on: connection)
    }

    /// Runs the statement; returns a checksum of what it read.
    func run() throws -> Int64 {
        var counters = fl_ref_counters()
        var code: Int32 = SQLITE_OK
        let sum: Int64
        switch mode {
        case .rows:
            sum = fl_ref_read_all(statement, &counters, &code)
        case .rowsMatching:
            sum = argument.withUnsafeBufferPointer { text in
                fl_ref_read_all_text(statement, text.baseAddress, Int32(text.count - 1), &counters, &code)
            }
        case .scalar:
            sum = fl_ref_scalar(statement, &counters, &code)
        case .lookups(let keys):
            sum = keys.withUnsafeBufferPointer { keys in
                fl_ref_lookup(statement, keys.baseAddress, Int64(keys.count), &counters, &code)
            }
        }
        SQLiteCounters.recordExternalWork(counters)
        guard code == SQLITE_OK else { throw FetchingError("raw: \(sql) failed with SQLite code \(code)") }
        return sum
    }

    /// Its `EXPLAIN QUERY PLAN`.
    func plan() throws -> String { try QueryPlan.explain(sql, on: connection) }
}
