import BenchmarkData
import CSQLiteReference
import FaultlineSQLite

/// The raw side: SQLite's C API driven by the C loops in CSQLiteReference.
/// Swift only opens, prepares (before the clock), calls one C function inside
/// the clock and records the counters the C loop kept.
final class RawDatabase {
    let path: String
    let db: OpaquePointer
    private var statements: [OpaquePointer] = []
    private var counters = fl_ref_counters()

    init(path: String, createSchema: Bool) throws {
        self.path = path
        var handle: OpaquePointer?
        let code = fl_ref_open(path, &handle)
        guard code == SQLITE_OK, let handle else {
            if let handle { fl_ref_close(handle) }
            throw WorkloadError("raw: cannot open \(path) (SQLite code \(code))")
        }
        db = handle
        if createSchema, fl_ref_exec(db, ArticleSQL.schema, &counters) != SQLITE_OK {
            throw WorkloadError("raw: cannot create the article table")
        }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard fl_ref_prepare(db, sql, &statement, &counters) == SQLITE_OK, let statement else {
            throw WorkloadError("raw: cannot prepare \(sql)")
        }
        statements.append(statement)
        return statement
    }

    /// Runs a C loop with fresh counters, then adds what it counted to the
    /// process totals the harness reads.
    func counting<Result>(_ body: (UnsafeMutablePointer<fl_ref_counters>) -> Result) -> Result {
        var work = fl_ref_counters()
        let result = body(&work)
        SQLiteCounters.recordExternalWork(work)
        return result
    }

    deinit {
        statements.forEach(fl_ref_finalize)
        fl_ref_close(db)
    }
}

/// State of one raw insert iteration: a fresh database and its statements.
struct RawInsertState {
    let database: RawDatabase
    let insert: OpaquePointer
    let begin: OpaquePointer
    let commit: OpaquePointer

    init(path: String) throws {
        database = try RawDatabase(path: path, createSchema: true)
        insert = try database.prepare(ArticleSQL.insert)
        begin = try database.prepare(ArticleSQL.begin)
        commit = try database.prepare(ArticleSQL.commit)
    }

    func run(_ dataset: ArticleDataset, rows: Range<Int>? = nil, oneTransaction: Bool) throws {
        let code = database.counting { counters in
            dataset.withCArticles(rows) { articles in
                fl_ref_insert(database.db, insert, begin, commit, articles, oneTransaction ? 1 : 0, counters)
            }
        }
        guard code == SQLITE_OK else { throw WorkloadError("raw insert failed with SQLite code \(code)") }
    }
}

/// State of one raw read iteration on an already populated database.
struct RawReadState {
    let database: RawDatabase
    let query: OpaquePointer

    init(path: String, sql: String) throws {
        database = try RawDatabase(path: path, createSchema: false)
        query = try database.prepare(sql)
    }

    func readAll() throws -> Int64 {
        var code: Int32 = 0
        let sum = database.counting { fl_ref_read_all(query, $0, &code) }
        guard code == SQLITE_OK else { throw WorkloadError("raw fetch failed with SQLite code \(code)") }
        return sum
    }

    func lookUp(_ keys: [Int64]) throws -> Int64 {
        var code: Int32 = 0
        let sum = keys.withUnsafeBufferPointer { keys in
            database.counting { fl_ref_lookup(query, keys.baseAddress, Int64(keys.count), $0, &code) }
        }
        guard code == SQLITE_OK else { throw WorkloadError("raw lookup failed with SQLite code \(code)") }
        return sum
    }
}
