import CSQLite
import Foundation

// FaultlineSQLite — the only code that calls the SQLite C API (apart from the raw
// reference loops the benchmarks compare against).
//
// Invariants:
// 1. A `Connection` and its `Statement`s are used by one thread at a time; the
//    connection is opened without SQLite's per-connection mutex (NOMUTEX).
// 2. Every statement execution is counted once (see `SQLiteCounters`), and every
//    value reaches SQL as a bound parameter.
// 3. Closing is deferred until the last statement is finalized
//    (`sqlite3_close_v2`), so a statement outliving its connection stays valid.

/// One SQLite database connection.
public final class Connection {
    /// Where the database lives.
    public enum Location: Sendable, Equatable {
        /// A private, in-memory database that disappears with the connection.
        case inMemory
        /// A file, created when missing (unless the connection is read-only).
        case file(String)
    }

    /// How a connection is opened.
    public struct Configuration: Sendable {
        /// How long a statement waits for another connection's lock, in milliseconds.
        public var busyTimeoutMilliseconds: Int32 = 5_000
        public var readOnly = false
        /// Reads the file exactly as it is, without a `-wal` or `-shm` and
        /// without locks (SQLite's `immutable=1`), so opening creates no file
        /// beside it. Implies read-only; only sound while nothing writes to it.
        public var immutable = false
        public var foreignKeys = true
        /// Statements held by `statementCache`.
        public var statementCacheCapacity = 64
        /// SQLite's page cache limit (`PRAGMA cache_size`), in KiB; nil keeps
        /// SQLite's default (2,000 KiB). Pages are allocated as they are read,
        /// so a higher limit costs memory only when a transaction touches that
        /// much.
        public var pageCacheKibibytes: Int?
        public init() {}
    }

    let handle: OpaquePointer
    public let location: Location
    /// How long a statement waits on another connection's lock before
    /// `SQLITE_BUSY`, as configured: what a busy error reports.
    public let busyTimeoutMilliseconds: Int32
    private let counterStorage = ConnectionCounters()
    /// Prepared statements by SQL text; see `cachedStatement(_:)`.
    public let statementCache: StatementCache
    var savepointDepth = 0
    /// The row visitor aggregate, once registered (`visitRows`).
    var rowVisitor: RowVisitor?

    /// Opens a database. Files use WAL with `synchronous=NORMAL`; every
    /// connection has foreign keys on and a busy timeout.
    public init(_ location: Location, configuration: Configuration = Configuration()) throws {
        let path: String
        switch location {
        case .inMemory: path = ":memory:"
        case .file(let file) where configuration.immutable:
            path = Configuration.immutableURI(file)
        case .file(let file): path = file
        }
        let readOnly = configuration.readOnly || configuration.immutable
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let error = SQLiteError(connection: db, resultCode: code, sql: nil)
            sqlite3_close_v2(db)
            throw Self.naming(error, location)
        }
        handle = db
        self.location = location
        busyTimeoutMilliseconds = configuration.busyTimeoutMilliseconds
        statementCache = StatementCache(
            connection: db, capacity: configuration.statementCacheCapacity, counters: counterStorage)
        sqlite3_busy_timeout(db, configuration.busyTimeoutMilliseconds)
        do {
            if configuration.foreignKeys { try execute("PRAGMA foreign_keys = ON") }
            if let kibibytes = configuration.pageCacheKibibytes { try execute("PRAGMA cache_size = -\(max(0, kibibytes))") }
            if case .file = location, !readOnly {
                // Reading a page also proves this is a database at all: a foreign
                // file fails here with SQLITE_NOTADB instead of at first use.
                try switchToWAL(within: configuration.busyTimeoutMilliseconds)
                try execute("PRAGMA synchronous = NORMAL")
            } else if case .file = location {
                try execute("SELECT count(*) FROM sqlite_master")
            }
        } catch {
            statementCache.removeAll()
            sqlite3_close_v2(db)
            throw Self.naming(error, location)
        }
    }

    /// An error opening a file, with its path: SQLite's "unable to open
    /// database file" or "disk I/O error" (a directory) does not say which.
    /// The set-up statement that met the failure (SQLite opens the file
    /// lazily, at the first pragma) is left out: "while executing: PRAGMA
    /// cache_size" pointed at a setting, not at the file.
    private static func naming(_ error: any Error, _ location: Location) -> any Error {
        guard case .file(let file) = location, let error = error as? SQLiteError else { return error }
        return SQLiteError(extendedCode: error.extendedCode, message: "\(error.message) (opening \(file))")
    }

    /// `journal_mode = WAL`, retried for up to the busy timeout: switching a
    /// new file to WAL needs a lock another connection opening or creating
    /// the same file may hold, and SQLite reports that as SQLITE_BUSY at once,
    /// without its busy handler (four coordinators opening one new store
    /// together showed it).
    private func switchToWAL(within milliseconds: Int32) throws {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, milliseconds)) * 1_000_000
        while true {
            do {
                return try execute("PRAGMA journal_mode = WAL")
            } catch let error as SQLiteError where error.code == .busy && DispatchTime.now().uptimeNanoseconds < deadline {
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// This connection's counters since it opened or since `resetCounters()`.
    public var counters: SQLiteCounters { counterStorage.value }

    /// Zeroes this connection's counters (the process totals are not affected).
    public func resetCounters() { counterStorage.value = SQLiteCounters() }

    /// The SQLite library version, e.g. "3.40.1".
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// Prepares a statement that is not cached; it is finalized when released.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: handle, sql: sql, persistent: false, counters: counterStorage)
    }

    /// The cached prepared statement for `sql`, reset and ready to bind.
    public func cachedStatement(_ sql: String) throws -> Statement {
        try statementCache.statement(for: sql)
    }

    /// Runs every statement in `sql` (DDL, pragmas, several statements
    /// separated by semicolons), discarding rows. Statements are split by
    /// SQLite's own tokenizer, so semicolons in strings and trigger bodies are safe.
    public func execute(_ sql: String) throws {
        var utf8 = Array(sql.utf8)[...]
        while !utf8.isEmpty {
            // On a compile error SQLite gives no statement boundary: the error names
            // the script from the failing statement on.
            let text = String(decoding: utf8, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { return }
            utf8 = Array(text.utf8)[...]
            let (handle, consumed) = try Statement.compile(connection: self.handle, sql: text, persistent: false)
            guard consumed > 0 else { return }
            let statementText = String(decoding: utf8.prefix(consumed), as: UTF8.self)
            utf8 = utf8.dropFirst(consumed)
            guard let handle else { continue }
            let statement = Statement(
                handle: handle,
                sql: statementText.trimmingCharacters(in: .whitespacesAndNewlines),
                counters: counterStorage)
            try statement.execute()
        }
    }

    /// Runs one statement with bound values, discarding rows.
    public func execute(_ sql: String, _ values: [SQLValue]) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(values)
        try statement.execute()
    }

    /// Runs a query and returns its rows as dynamically typed values. Meant for
    /// tests and tools; hot paths step a `Statement` and read by index.
    public func rows(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        let statement = try cachedStatement(sql)
        try statement.bind(values)
        defer { statement.reset() }
        var rows: [[SQLValue]] = []
        let width = statement.columnCount
        while try statement.step() {
            rows.append((0..<width).map { statement.value(at: $0) })
        }
        return rows
    }

    /// The first column of the first row, or `nil` when there is no row.
    public func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> SQLValue? {
        try rows(sql, values).first?.first
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The rowid of the most recent successful INSERT.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Lends the raw `sqlite3*` handle, for the raw SQLite reference loops the
    /// benchmarks compare against (they must run on a connection with the
    /// store's SQL functions registered). Do not close it or keep it.
    public func withUnsafeHandle<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try body(handle)
    }

    /// Whether no transaction is open.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }
}
