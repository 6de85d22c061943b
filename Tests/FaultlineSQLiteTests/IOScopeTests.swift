import Foundation
import Testing
import FaultlineSQLite

/// The VFS shim behind `IOScope`: it counts the operations of the files in its
/// directory, fails exactly the one it is told to, and leaves every other file alone.
@Suite("An I/O scope counts its files' operations and fails the one it is told to")
final class IOScopeTests {
    let directory: URL
    let scope: IOScope

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        scope = try IOScope(directory: directory.path)
    }

    /// Each test has its own folder, removed with it.
    deinit { try? FileManager.default.removeItem(at: directory) }

    private func database(_ name: String = "db.sqlite") throws -> Connection {
        try Connection(.file(directory.appendingPathComponent(name).path))
    }

    private func insertRows(_ connection: Connection, count: Int) throws {
        try connection.transaction {
            for index in 0..<count {
                try connection.execute("INSERT INTO t (x) VALUES (?)", [.text(String(repeating: "v", count: 200) + "\(index)")])
            }
        }
    }

    @Test("Opening, writing and committing are counted in the scope, with the bytes written")
    func counts() throws {
        let connection = try database()
        try connection.execute("CREATE TABLE t (x TEXT)")
        scope.resetCounts()
        try insertRows(connection, count: 100)
        let counts = scope.counts
        // 100 rows of ~200 bytes fill several 4 KiB pages, all appended to the WAL.
        #expect(counts[.write] >= 6)
        #expect(counts.bytesWritten >= 100 * 200)
        #expect(counts.faultsInjected == 0)
        // synchronous=NORMAL: a WAL commit does not sync.
        #expect(counts[.sync] == 0)
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(scope.counts[.sync] >= 1)
        #expect(scope.counts[.truncate] >= 1)
    }

    @Test("Writes into the WAL count as journal bytes, and the peak is how far the WAL grew; a checkpoint restarts it")
    func walGrowth() throws {
        let connection = try database()
        try connection.execute("CREATE TABLE t (x TEXT)")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        scope.resetCounts()
        try insertRows(connection, count: 100)
        let counts = scope.counts
        // Every byte of a WAL commit goes to the WAL; the WAL file is as long as the peak.
        #expect(counts.journalBytesWritten == counts.bytesWritten)
        let walSize = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent("db.sqlite-wal").path)[.size] as? Int
        #expect(counts.journalPeakBytes == walSize)
        #expect(counts.journalPeakBytes >= 100 * 200)
        // After a checkpoint the WAL starts again from its first frame: a small
        // transaction's peak is small, while the journal bytes keep adding up.
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        scope.resetJournalPeak()
        try insertRows(connection, count: 1)
        #expect(scope.counts.journalPeakBytes > 0)
        #expect(scope.counts.journalPeakBytes < counts.journalPeakBytes / 2)
        #expect(scope.counts.journalBytesWritten > counts.journalBytesWritten)
    }

    @Test("A rollback journal counts as a journal too; the database file's own writes do not")
    func rollbackJournal() throws {
        let connection = try database("rollback.sqlite")
        try connection.execute("PRAGMA journal_mode=DELETE")
        try connection.execute("CREATE TABLE t (x TEXT)")
        try insertRows(connection, count: 100)
        scope.resetCounts()
        scope.resetJournalPeak()
        try connection.execute("UPDATE t SET x = x || 'w'")
        let counts = scope.counts
        // The journal holds the pages as they were; the database file gets the new ones.
        #expect(counts.journalBytesWritten > 0)
        #expect(counts.journalBytesWritten < counts.bytesWritten)
        #expect(counts.journalPeakBytes > 0)
    }

    @Test("A scope over the directory around this one, opened after it, does not take its files")
    func innermostScopeWins() throws {
        // Another user of the shim in the same process (a benchmark run
        // watching the whole temporary directory) may open its scope at any
        // time. Both directories are this test's own: a scope over the whole
        // temporary directory would also count the other tests' files.
        let outerDirectory = directory.appendingPathComponent("outer")
        let innerDirectory = outerDirectory.appendingPathComponent("inner")
        try FileManager.default.createDirectory(at: innerDirectory, withIntermediateDirectories: true)
        let inner = try IOScope(directory: innerDirectory.path)
        let outer = try IOScope(directory: outerDirectory.path)
        let connection = try Connection(.file(innerDirectory.appendingPathComponent("inner.sqlite").path))
        try connection.execute("CREATE TABLE t (x TEXT)")
        inner.resetCounts()
        outer.resetCounts()
        try insertRows(connection, count: 10)
        #expect(inner.counts[.write] >= 1)
        #expect(outer.counts[.write] == 0)
    }

    @Test("Files outside the scope's directory pass through uncounted")
    func outsideFilesUncounted() throws {
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-io-out-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: elsewhere.path + suffix) } }
        scope.inject(IOFault(.write, occurrence: 1))
        let connection = try Connection(.file(elsewhere.path))
        try connection.execute("CREATE TABLE t (x TEXT)")
        try insertRows(connection, count: 10)
        let counts = scope.counts
        #expect(IOOperation.allCases.allSatisfy { counts[$0] == 0 })
        #expect(counts.bytesWritten == 0 && counts.faultsInjected == 0)
    }

    @Test("A failed write rolls the transaction back with SQLITE_IOERR_WRITE; cleared, the next one commits")
    func writeFault() throws {
        let connection = try database()
        try connection.execute("CREATE TABLE t (x TEXT)")
        scope.inject(IOFault(.write, occurrence: 1))
        let error = try #require(throws: SQLiteError.self) { try insertRows(connection, count: 100) }
        #expect(error.code == .ioError)
        #expect(error.extendedCode == 778) // SQLITE_IOERR_WRITE
        #expect(scope.counts.faultsInjected == 1)
        #expect(try connection.scalar("SELECT count(*) FROM t") == .integer(0))
        scope.clearFault()
        try insertRows(connection, count: 100)
        #expect(try connection.scalar("SELECT count(*) FROM t") == .integer(100))
    }

    @Test("A full disk fails with SQLITE_FULL until it is cleared")
    func diskFull() throws {
        let connection = try database()
        try connection.execute("CREATE TABLE t (x TEXT)")
        scope.inject(IOFault(.write, occurrence: 2, effect: .diskFull, persistent: true))
        let first = try #require(throws: SQLiteError.self) { try insertRows(connection, count: 100) }
        #expect(first.code == .full)
        let second = try #require(throws: SQLiteError.self) { try insertRows(connection, count: 100) }
        #expect(second.code == .full)
        #expect(scope.counts.faultsInjected >= 2)
        scope.clearFault()
        try insertRows(connection, count: 100)
        #expect(try connection.scalar("SELECT count(*) FROM t") == .integer(100))
    }

    @Test("A failed read reports SQLITE_IOERR_READ")
    func readFault() throws {
        do {
            let connection = try database()
            try connection.execute("CREATE TABLE t (x TEXT)")
            try insertRows(connection, count: 100)
        }
        let connection = try database()
        scope.inject(IOFault(.read, occurrence: 1))
        let error = try #require(throws: SQLiteError.self) { try connection.scalar("SELECT count(*) FROM t") }
        #expect(error.code == .ioError)
        scope.clearFault()
        #expect(try connection.scalar("SELECT count(*) FROM t") == .integer(100))
    }

    @Test("A failed open reports SQLITE_CANTOPEN")
    func openFault() throws {
        scope.inject(IOFault(.open, occurrence: 1))
        let error = try #require(throws: SQLiteError.self) { try database() }
        #expect(error.code == .cantOpen)
    }

    @Test("A torn write in a commit leaves the database as it was before, intact")
    func tornWrite() throws {
        let path = directory.appendingPathComponent("db.sqlite").path
        do {
            let connection = try database()
            try connection.execute("CREATE TABLE t (x TEXT)")
            try insertRows(connection, count: 50)
            scope.resetCounts()
            scope.inject(IOFault(.write, occurrence: 3, effect: .tornWrite))
            #expect(throws: SQLiteError.self) { try insertRows(connection, count: 100) }
            // Nothing reaches the disk after the tear, not even the checkpoint on close.
            #expect(throws: SQLiteError.self) { try insertRows(connection, count: 1) }
        }
        scope.clearFault()
        let reopened = try Connection(.file(path))
        #expect(try reopened.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(try reopened.scalar("SELECT count(*) FROM t") == .integer(50))
    }
}
