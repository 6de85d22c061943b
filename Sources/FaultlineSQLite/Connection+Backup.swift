import CSQLite

// SQLite's online backup API (`sqlite3_backup_init/step/finish`): a copy of a
// database made through a connection to it, so a database in WAL mode is
// copied with what its `-wal` holds, which a copy of the main file misses.
//
// Invariants:
// 1. The copy is one read snapshot: every page is copied in a single
//    `sqlite3_backup_step(-1)`, which holds one read transaction on this
//    connection for its whole run (or uses the one already open). It holds
//    committed data only; another connection's open write is not in it.
// 2. The destination is a new connection of its own, closed before returning,
//    whatever happened; on failure the file at `path` is left for the caller
//    to remove (it may hold a partial copy).

extension Connection {
    /// Copies this connection's main database, as of one read snapshot, into
    /// the database file at `path` (created when missing, its contents
    /// replaced). The copy keeps the source's page size and header (a WAL
    /// database's copy opens in WAL mode). Throws the `SQLiteError` of the
    /// failing step. Cost: every page of the database is read and written once.
    public func backup(toFile path: String) throws {
        var destination: OpaquePointer?
        let opened = sqlite3_open_v2(path, &destination, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        defer { sqlite3_close_v2(destination) }
        guard opened == SQLITE_OK, let destination else {
            throw SQLiteError(connection: destination, resultCode: opened, sql: nil)
        }
        guard let backup = sqlite3_backup_init(destination, "main", handle, "main") else {
            throw SQLiteError(connection: destination, resultCode: sqlite3_errcode(destination), sql: nil)
        }
        let stepped = sqlite3_backup_step(backup, -1)
        // Finishing reports the step's error on the destination connection.
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE else {
            throw SQLiteError(extendedCode: stepped, message: "backup to \(path) failed: \(ResultCode(rawValue: stepped))")
        }
        guard finished == SQLITE_OK else {
            throw SQLiteError(connection: destination, resultCode: finished, sql: nil)
        }
    }
}
