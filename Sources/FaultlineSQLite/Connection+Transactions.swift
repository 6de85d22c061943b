/// Transactions and savepoints that commit when their body returns and roll
/// back when it throws.
extension Connection {
    /// How a transaction takes its locks (SQLite's `BEGIN DEFERRED|IMMEDIATE|EXCLUSIVE`).
    public enum TransactionKind: String, Sendable {
        /// Locks on first read or write.
        case deferred = "DEFERRED"
        /// Takes the write lock at once: use for writers, so two writers never
        /// both read and then deadlock on upgrading.
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"

        /// The statement that begins one, as a constant: built by
        /// interpolation it would allocate its text on every transaction.
        var begin: String {
            switch self {
            case .deferred: "BEGIN DEFERRED TRANSACTION"
            case .immediate: "BEGIN IMMEDIATE TRANSACTION"
            case .exclusive: "BEGIN EXCLUSIVE TRANSACTION"
            }
        }
    }

    /// Turns SQLite's foreign key enforcement on or off (`PRAGMA foreign_keys`).
    /// SQLite ignores it inside a transaction: call it outside one, as its
    /// table-rebuild procedure does around the rebuilding transaction.
    public func setForeignKeys(enabled: Bool) throws {
        try execute(enabled ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when
    /// it throws (the error is rethrown). Inside an open transaction this nests
    /// as a savepoint instead, since SQLite has no nested `BEGIN`.
    public func transaction<Result>(
        _ kind: TransactionKind = .deferred, _ body: () throws -> Result
    ) throws -> Result {
        if !isAutocommit { return try savepoint(body) }
        try cachedStatement(kind.begin).execute()
        let result: Result
        do {
            result = try body()
        } catch {
            rollbackQuietly("ROLLBACK TRANSACTION")
            throw error
        }
        do {
            try cachedStatement("COMMIT TRANSACTION").execute()
        } catch {
            // A failed COMMIT (e.g. a deferred constraint) may leave the
            // transaction open; close it so the connection stays usable.
            if !isAutocommit { rollbackQuietly("ROLLBACK TRANSACTION") }
            throw error
        }
        return result
    }

    /// Opens a read transaction and takes its snapshot now (in WAL mode a
    /// deferred `BEGIN` takes none until the first read, so one is made): every
    /// read on this connection sees the database as it is at this moment
    /// until `endReadSnapshot()`.
    public func beginReadSnapshot() throws {
        try execute(TransactionKind.deferred.begin)
        do {
            _ = try scalar("SELECT COUNT(*) FROM sqlite_master")
        } catch {
            rollbackQuietly("ROLLBACK TRANSACTION")
            throw error
        }
    }

    /// Ends the read transaction `beginReadSnapshot()` opened.
    public func endReadSnapshot() {
        if !isAutocommit { rollbackQuietly("ROLLBACK TRANSACTION") }
    }

    /// Runs `body` inside a savepoint: released when it returns, rolled back
    /// (undoing only what the body did) when it throws. Savepoints nest.
    public func savepoint<Result>(_ body: () throws -> Result) throws -> Result {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "faultline_sp\(savepointDepth)"
        try cachedStatement("SAVEPOINT \(name)").execute()
        let result: Result
        do {
            result = try body()
        } catch {
            rollbackQuietly("ROLLBACK TO SAVEPOINT \(name)")
            rollbackQuietly("RELEASE SAVEPOINT \(name)")
            throw error
        }
        try cachedStatement("RELEASE SAVEPOINT \(name)").execute()
        return result
    }

    /// Rolling back is best effort while an error is already being thrown: the
    /// caller's error is the one worth reporting, and SQLite may have rolled back
    /// on its own (e.g. after SQLITE_FULL).
    private func rollbackQuietly(_ sql: String) {
        do { try cachedStatement(sql).execute() } catch {}
    }
}
