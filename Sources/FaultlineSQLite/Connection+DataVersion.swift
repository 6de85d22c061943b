import CSQLite

extension Connection {
    /// The main database's data version (`SQLITE_FCNTL_DATA_VERSION`): it
    /// changes whenever the database changes — through this connection or
    /// through any other connection or process — as seen at the start of this
    /// connection's latest read or write transaction. Unlike
    /// `PRAGMA data_version` it runs no statement, so reading it costs no
    /// counted SQL. Nil when the VFS does not answer (an in-memory database).
    public var dataVersion: UInt32? {
        var version: UInt32 = 0
        // No database name: SQLite reads NULL as the main database without
        // comparing the name with each attached one's, a cost every read paid.
        let status = withUnsafeHandle { sqlite3_file_control($0, nil, SQLITE_FCNTL_DATA_VERSION, &version) }
        return status == SQLITE_OK ? version : nil
    }
}

extension Connection {
    /// `PRAGMA data_version`, read now: unlike `dataVersion` it reads the
    /// database (one statement), so it sees commits made since this
    /// connection's last transaction — what a connection that only watches
    /// for other connections' commits asks.
    public func currentDataVersion() throws -> Int64? {
        guard case .integer(let version)? = try scalar("PRAGMA data_version") else { return nil }
        return version
    }
}
