import CSQLiteReference
import Faultline
import FaultlineSQLite

/// The raw reference: the SQLite C API doing the profiled reads by hand, on a
/// connection with the store's SQL functions. One statement reads every
/// parent (as the strategies' fetch does), then one statement per level reads
/// the touched parents' children (`… IN (SELECT value FROM json_each(?))`).
/// Statements are prepared once, at creation, like a statement cache's.
public final class RawGraphReader {
    public let workload: GraphWorkload
    private let connection: Connection
    private let statements: RawStatements
    private let touchedKeys: [Int64]
    /// The work of the last `run()` (also added to the process totals).
    public private(set) var lastRun = SQLiteCounters()

    public init(store: ObjectGraphStore, workload: GraphWorkload) throws {
        self.workload = workload
        connection = try Connection(.file(store.url.path))
        try StoreFunctions.register(on: connection)
        var sql = ["SELECT \(ObjectGraphModel.selectList(level: 0)) FROM \(ObjectGraphModel.table(level: 0))"]
        for level in 1...workload.pattern.depth {
            sql.append("SELECT \(ObjectGraphModel.selectList(level: level)) FROM \(ObjectGraphModel.table(level: level))"
                + " WHERE \(ObjectGraphModel.inverseColumns[level - 1]) IN (SELECT value FROM json_each(?))")
        }
        touchedKeys = workload.touched.map { Int64($0 + 1) }
        statements = try RawStatements(sql, on: connection)
    }

    /// Runs the reads; returns a checksum. Records the work in the process counters.
    public func run() throws -> Int64 {
        var counters = fl_ref_counters()
        var code = SQLITE_OK
        var checksum = fl_ref_read_all(statements[0], &counters, &code)
        var keys = touchedKeys
        for level in 1..<statements.count where code == SQLITE_OK {
            let capacity = keys.count * workload.shape.fanOuts[level - 1]
            var children = [Int64](repeating: 0, count: capacity)
            var found: Int64 = 0
            checksum &+= fl_ref_read_children(
                statements[level], keys, Int64(keys.count), &children, Int64(capacity), &found, &counters, &code)
            keys = Array(children.prefix(Int(found)))
        }
        lastRun = SQLiteCounters.recordExternalWork(counters)
        guard code == SQLITE_OK else { throw ObjectGraphInputError("raw read failed with SQLite code \(code)") }
        return checksum
    }
}
