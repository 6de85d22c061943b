import CSQLiteReference
import Faultline
import FaultlineSQLite

/// Statements prepared by hand, before the clock, on a connection for the raw
/// reference loops; finalized together when this goes away (or at once, if one
/// of them fails to prepare). Holds its connection so it outlives them.
public final class RawStatements {
    public let statements: [OpaquePointer]
    private let connection: Connection

    public init(_ sql: [String], on connection: Connection) throws {
        self.connection = connection
        let (prepared, failure): ([OpaquePointer], RawPrepareError?) = connection.withUnsafeHandle { db in
            var counters = fl_ref_counters()
            var prepared: [OpaquePointer] = []
            for text in sql {
                var statement: OpaquePointer?
                let code = fl_ref_prepare(db, text, &statement, &counters)
                guard code == SQLITE_OK, let statement else {
                    return (prepared, RawPrepareError(sql: text, code: code))
                }
                prepared.append(statement)
            }
            return (prepared, nil)
        }
        if let failure {
            prepared.forEach(fl_ref_finalize)
            throw failure
        }
        statements = prepared
    }

    public subscript(index: Int) -> OpaquePointer { statements[index] }
    public var count: Int { statements.count }

    deinit {
        statements.forEach(fl_ref_finalize)
    }
}

public struct RawPrepareError: Error, CustomStringConvertible {
    public let sql: String
    public let code: Int32
    public var description: String { "raw: cannot prepare \(sql) (SQLite code \(code))" }
}

extension SQLiteCounters {
    /// Adds what a C loop counted to the process totals the harness reads, and
    /// returns it.
    @discardableResult
    public static func recordExternalWork(_ work: fl_ref_counters) -> SQLiteCounters {
        var recorded = SQLiteCounters()
        recorded.statementsPrepared = Int(work.statements_prepared)
        recorded.statementsExecuted = Int(work.statements_executed)
        recorded.rowsReturned = Int(work.rows_returned)
        recorded.vmSteps = Int(work.vm_steps)
        recordExternalWork(recorded)
        return recorded
    }
}

extension Connection {
    /// A connection for a raw loop that writes: opened as a store's writer is,
    /// with the same page cache, so the C floor and Faultline write under the
    /// same cache policy, and with the store's SQL functions (its triggers
    /// call them).
    public static func rawWriter(_ path: String) throws -> Connection {
        var configuration = Connection.Configuration()
        configuration.pageCacheKibibytes = PersistentStoreCoordinator.writerPageCacheKibibytes
        let connection = try Connection(.file(path), configuration: configuration)
        try StoreFunctions.register(on: connection)
        return connection
    }
}
