import Foundation
import Testing
@testable import FaultlineSQLite

/// Errors carry SQLite's codes, its message and the SQL that failed.
@Suite("SQLite errors")
struct SQLiteErrorTests {
    @Test("A syntax error names the SQL it was preparing")
    func syntaxError() throws {
        let connection = try Connection(.inMemory)
        let error = try #require(throws: SQLiteError.self) { try connection.prepare("SELEC 1") }
        #expect(error.code == .error)
        #expect(error.sql == "SELEC 1")
        #expect(error.message.contains("syntax error"))
        #expect(error.description.contains("SELEC 1"))
    }

    @Test("A constraint violation has the constraint family and its extended code")
    func constraint() throws {
        let connection = try Connection(.inMemory)
        try connection.execute("CREATE TABLE t (name TEXT UNIQUE)")
        try connection.execute("INSERT INTO t VALUES (?)", [.text("a")])
        let error = try #require(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO t VALUES (?)", [.text("a")])
        }
        #expect(error.code == .constraint)
        #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error.sql == "INSERT INTO t VALUES (?)")
        #expect(error.message.contains("UNIQUE"))
        // The bound value is user data: it stays out of the error.
        #expect(!error.description.contains("'a'"))
    }

    @Test("A failing statement in a script is named from that statement on, after the work before it")
    func scriptError() throws {
        let connection = try Connection(.inMemory)
        let error = try #require(throws: SQLiteError.self) {
            try connection.execute("CREATE TABLE a (x); INSERT INTO missing VALUES (1); CREATE TABLE b (y)")
        }
        #expect(error.sql?.hasPrefix("INSERT INTO missing VALUES (1)") == true)
        #expect(try connection.rows("SELECT name FROM sqlite_master") == [[.text("a")]])
    }

    @Test("A file that is not a database fails to open with notADatabase, naming the file, not a set-up pragma")
    func foreignFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-db-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: SQLiteError.self) { try Connection(.file(path)) }
        #expect(error.code == .notADatabase)
        // SQLite reads the file at the first set-up pragma; that statement is
        // not the user's, and the error names the file instead.
        #expect(error.sql == nil && !"\(error)".contains("PRAGMA") && "\(error)".contains("(opening \(path))"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x41, count: 4096))
    }

    @Test("Opening a missing file read-only fails with cantOpen, naming the file")
    func missingReadOnly() throws {
        var configuration = Connection.Configuration()
        configuration.readOnly = true
        let path = "/nonexistent/\(UUID()).sqlite"
        let error = try #require(throws: SQLiteError.self) {
            try Connection(.file(path), configuration: configuration)
        }
        #expect(error.code == .cantOpen)
        #expect(error.message.hasSuffix("(opening \(path))"))
    }

    @Test("A file in a missing directory, or a directory, fails naming the path")
    func unopenablePaths() throws {
        let missing = "/nonexistent/\(UUID())/store.sqlite"
        let inMissing = try #require(throws: SQLiteError.self) { try Connection(.file(missing)) }
        #expect(inMissing.code == .cantOpen && "\(inMissing)".contains("(opening \(missing))"))
        let directory = FileManager.default.temporaryDirectory.path
        let isDirectory = try #require(throws: SQLiteError.self) { try Connection(.file(directory)) }
        #expect("\(isDirectory)".contains("(opening \(directory))"))
    }

    @Test("Empty SQL is refused, not stepped")
    func emptySQL() throws {
        let connection = try Connection(.inMemory)
        let error = try #require(throws: SQLiteError.self) { try connection.prepare("  -- nothing\n") }
        #expect(error.code == .misuse)
    }

    @Test("Files open in WAL mode with synchronous NORMAL and foreign keys on")
    func filePragmas() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pragmas-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let connection = try Connection(.file(path))
        #expect(try connection.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try connection.scalar("PRAGMA synchronous") == .integer(1))
        #expect(try connection.scalar("PRAGMA foreign_keys") == .integer(1))
    }
}
