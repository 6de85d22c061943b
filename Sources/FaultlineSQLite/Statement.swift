import CSQLite
import Foundation

/// A prepared SQLite statement: bind by index, step, read columns by index.
///
/// Invariants:
/// 1. `handle` is a live `sqlite3_stmt`, finalized exactly once, in `deinit`.
/// 2. An *execution* starts with the first `step()` after preparation or
///    `reset()` and ends at `SQLITE_DONE`, at an error, or at `reset()`; each
///    execution is counted once, with its rows and VM steps.
/// 3. Bindings persist across executions until rebound or `clearBindings()`.
///
/// A statement belongs to its connection's thread. Values read with `int64(at:)`
/// and `double(at:)` allocate nothing; `string(at:)` copies the text once.
public final class Statement {
    let handle: OpaquePointer
    /// The SQL text this statement was prepared from.
    public let sql: String
    private let counters: ConnectionCounters
    let buffers: ParameterBuffers
    /// Set by the owning cache; consulted only when a step fails.
    weak var cache: StatementCache?

    private var isExecuting = false
    private var rowsThisExecution = 0
    private var executionStart: UInt64 = 0

    init(connection: OpaquePointer, sql: String, persistent: Bool, counters: ConnectionCounters) throws {
        let (handle, _) = try Statement.compile(connection: connection, sql: sql, persistent: persistent)
        guard let handle else {
            // Only whitespace or comments: nothing SQLite could step.
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "no SQL statement in text", sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.counters = counters
        self.buffers = ParameterBuffers(parameterCount: Int(sqlite3_bind_parameter_count(handle)))
        counters.value.statementsPrepared += 1
        ProcessCounters.shared.addPrepared()
    }

    /// Wraps an already prepared handle (see `Connection.execute(_:)`).
    init(handle: OpaquePointer, sql: String, counters: ConnectionCounters) {
        self.handle = handle
        self.sql = sql
        self.counters = counters
        self.buffers = ParameterBuffers(parameterCount: Int(sqlite3_bind_parameter_count(handle)))
        counters.value.statementsPrepared += 1
        ProcessCounters.shared.addPrepared()
    }

    /// Compiles the first statement of `sql`; returns its handle (nil when the
    /// text holds only whitespace or comments) and the UTF-8 length consumed.
    static func compile(
        connection: OpaquePointer, sql: String, persistent: Bool
    ) throws -> (OpaquePointer?, Int) {
        var statement: OpaquePointer?
        var consumed = 0
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(connection, text, -1, flags, &statement, &tail)
            if let tail { consumed = text.distance(to: tail) }
            return code
        }
        guard code == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw SQLiteError(connection: connection, resultCode: code, sql: sql)
        }
        return (statement, consumed)
    }

    deinit {
        sqlite3_finalize(handle)
        buffers.deallocate()
    }

    /// Number of `?` parameters the statement takes.
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// Whether the statement only reads (a `SELECT`, or a `PRAGMA` that reads).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Advances the statement. Returns `true` when a row is available, `false`
    /// when the statement has completed: the execution is then finished and the
    /// statement reset, ready to be rebound or stepped again.
    ///
    /// On error the statement is reset, a cached statement is evicted from its
    /// cache, and the error carries the statement's SQL.
    @inline(__always)
    public func step() throws -> Bool {
        if !isExecuting { beginExecution() }
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW {
            rowsThisExecution &+= 1
            return true
        }
        if code == SQLITE_DONE {
            finishExecution()
            sqlite3_reset(handle)
            return false
        }
        throw failure(code)
    }

    /// Runs the statement to completion, discarding any rows; it is then reset.
    @inline(__always)
    public func execute() throws {
        while try step() {}
    }

    /// Ends the current execution (if any) so the statement can run again.
    /// Bindings are kept. A statement not executing is reset already: only
    /// `step()` runs it, and stepping to the end or failing resets it. (The
    /// statement cache resets every statement it hands out, a fault's and a
    /// save's included.)
    public func reset() {
        guard isExecuting else { return }
        finishExecution()
        sqlite3_reset(handle)
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    private func beginExecution() {
        isExecuting = true
        rowsThisExecution = 0
        if SQLDebug.level > 0 { traceStart() }
        if StatementLog.isRecording { StatementLog.note(sql) }
    }

    private func finishExecution() {
        isExecuting = false
        let steps = Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_VM_STEP, 1))
        counters.value.statementsExecuted &+= 1
        counters.value.rowsReturned &+= rowsThisExecution
        counters.value.vmSteps &+= steps
        ProcessCounters.shared.addExecution(rows: rowsThisExecution, vmSteps: steps)
        if SQLDebug.level > 1 { traceFinish() }
    }

    private func failure(_ code: Int32) -> SQLiteError {
        let error = SQLiteError(connection: sqlite3_db_handle(handle), resultCode: code, sql: sql)
        finishExecution()
        sqlite3_reset(handle)
        cache?.evict(self)
        if SQLDebug.level > 0 { SQLDebug.write("error: \(error.message)") }
        return error
    }

    private func traceStart() {
        if SQLDebug.level > 1, let expanded = sqlite3_expanded_sql(handle) {
            SQLDebug.write(String(cString: expanded))
            sqlite3_free(expanded)
        } else {
            SQLDebug.write(sql)
        }
        executionStart = DispatchTime.now().uptimeNanoseconds
    }

    private func traceFinish() {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds &- executionStart) / 1e6
        SQLDebug.write("  \(rowsThisExecution) row(s), \(String(format: "%.3f", elapsed)) ms")
    }
}
