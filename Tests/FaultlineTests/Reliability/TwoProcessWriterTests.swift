import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

#if canImport(Glibc)
import Glibc
#endif

/// Two processes writing one store: saves from both interleave without a lost
/// row or a colliding key; a process that finds the store locked by a long
/// write waits within its busy timeout and then saves, or, past the timeout,
/// gets `StoreError.busy` with its changes kept and saves once the lock is gone.
@Suite("Two processes writing one store", .serialized)
struct TwoProcessWriterTests {
    static let savingVariable = "FAULTLINE_TWO_WRITERS_STORE"
    static let waitingVariable = "FAULTLINE_WAITING_WRITER"
    static let saves = 200
    static let rowsPerSave = 10
    static var model: ManagedObjectModel { KilledWriterTests.model }

    /// `saves` saves of `rowsPerSave` rows tagged `writer`: seq = writer × 1,000,000 + save.
    static func saveRows(_ url: URL, writer: Int) throws {
        let container = try PersistentContainer(model: model, location: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            for save in 1...saves {
                let batch = try context.insertNewObject(forEntityName: "Batch")
                let seq = Int64(writer * 1_000_000 + save)
                try batch.setValue(seq, forKey: "seq")
                for index in 0..<rowsPerSave {
                    let row = try context.insertNewObject(forEntityName: "Row")
                    try row.setValue(seq, forKey: "seq")
                    try row.setValue(KilledWriterTests.payload(Int(seq), index), forKey: "payload")
                    try row.setValue(batch, forKey: "batch")
                }
                try context.save()
                context.reset()
            }
        }
    }

    @Test("child: save rows as writer 2, when asked")
    func childSaves() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.savingVariable] else { return }
        // Tells the parent to start its own saves, so the two overlap.
        try Data().write(to: URL(fileURLWithPath: path + ".started"))
        try Self.saveRows(URL(fileURLWithPath: path), writer: 2)
    }

    @Test("parent: two processes saving at once: every row arrives, no key collides, counts and key reservations right")
    func interleavedSaves() throws {
        guard ProcessInfo.processInfo.environment[Self.savingVariable] == nil else { return }
        let url = try KilledWriterTests.newStore()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let child = try TestChildProcess.start(filter: "TwoProcessWriterTests/childSaves", variable: Self.savingVariable, value: url.path)
        let started = Date()
        while !FileManager.default.fileExists(atPath: url.path + ".started"), child.isRunning, Date().timeIntervalSince(started) < 20 {
            usleep(1_000)
        }
        try Self.saveRows(url, writer: 1)
        child.waitUntilExit()
        // Both ran at once: keys were handed out to one, then the other, and back.
        let seqs = try KilledWriterTests.integers(Connection(.file(url.path)), "SELECT ZSEQ / 1000000 FROM ZBATCH ORDER BY Z_PK")
        let switches = zip(seqs, seqs.dropFirst()).filter { $0[0] != $1[0] }.count
        #expect(switches >= 2, "the two writers' saves did not interleave")
        #expect(child.terminationReason == .exit && child.terminationStatus == 0)
        let connection = try Connection(.file(url.path))
        #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"))
        let perWriter = try KilledWriterTests.integers(connection, """
            SELECT b.ZSEQ / 1000000, COUNT(DISTINCT b.Z_PK), COUNT(r.Z_PK), SUM(b.ZROWCOUNT = \(Self.rowsPerSave))
            FROM ZBATCH b JOIN ZROW r ON r.ZBATCH = b.Z_PK GROUP BY 1 ORDER BY 1
            """)
        let expectedRows = Int64(Self.saves * Self.rowsPerSave)
        #expect(perWriter == [[1, Int64(Self.saves), expectedRows, expectedRows], [2, Int64(Self.saves), expectedRows, expectedRows]])
        try KilledWriterTests.expectKeysReserved(connection, after: 0)
    }

    /// Child: saves one row while the parent holds the write lock, and logs
    /// how it went: "saved <seconds>" or "busy <seconds> <kept changes> saved".
    @Test("child: save while the parent holds the write lock, when asked")
    func childWaits() throws {
        guard let value = ProcessInfo.processInfo.environment[Self.waitingVariable] else { return }
        let parts = value.split(separator: "|", maxSplits: 1).map(String.init)
        guard parts.count == 2, let timeout = TimeInterval(parts[0]) else { return }
        let path = parts[1]
        let log = path + ".waits"
        let container = try PersistentContainer(model: Self.model, location: .file(URL(fileURLWithPath: path)), busyTimeout: timeout)
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let row = try context.insertNewObject(forEntityName: "Row")
            try row.setValue("waiting writer", forKey: "payload")
            try Data("ready\n".utf8).write(to: URL(fileURLWithPath: log + ".ready"))
            let start = Date()
            do {
                try context.save()
                try Data("saved \(Date().timeIntervalSince(start))".utf8).write(to: URL(fileURLWithPath: log))
            } catch StoreError.busy {
                let waited = Date().timeIntervalSince(start)
                let kept = context.hasChanges
                while true {
                    do { try context.save(); break } catch StoreError.busy { usleep(20_000) }
                }
                try Data("busy \(waited) \(kept) saved".utf8).write(to: URL(fileURLWithPath: log))
            }
        }
    }

    /// Holds an IMMEDIATE transaction for `hold` seconds once the child is
    /// about to save; returns what the child logged.
    private func holdLock(on url: URL, for hold: TimeInterval, childTimeout: TimeInterval) throws -> [String] {
        let log = url.path + ".waits"
        let connection = try Connection(.file(url.path))
        try connection.execute("BEGIN IMMEDIATE")
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX WHERE Z_NAME = 'Row'")
        let child = try TestChildProcess.start(filter: "TwoProcessWriterTests/childWaits", variable: Self.waitingVariable,
                                               value: "\(childTimeout)|\(url.path)")
        let started = Date()
        while !FileManager.default.fileExists(atPath: log + ".ready"), child.isRunning, Date().timeIntervalSince(started) < 20 {
            usleep(1_000)
        }
        usleep(useconds_t(hold * 1_000_000))
        try connection.execute("COMMIT")
        child.waitUntilExit()
        #expect(child.terminationReason == .exit && child.terminationStatus == 0)
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: " ").map(String.init)
    }

    @Test("A save that meets a 1 s write waits for it within a 5 s busy timeout, then commits")
    func waitsWithinTimeout() throws {
        let url = try KilledWriterTests.newStore()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let words = try holdLock(on: url, for: 1.0, childTimeout: 5)
        try #require(words.count == 2 && words[0] == "saved", "the child logged \(words)")
        let waited = try #require(Double(words[1]))
        #expect(waited >= 0.8 && waited < 5, "waited \(waited) s for a 1 s lock")
        #expect(try KilledWriterTests.integers(Connection(.file(url.path)), "SELECT COUNT(*) FROM ZROW") == [[1]])
    }

    @Test("Past a 0.2 s busy timeout a save fails with StoreError.busy, keeps its changes and saves after the lock is gone")
    func busyPastTimeout() throws {
        let url = try KilledWriterTests.newStore()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let words = try holdLock(on: url, for: 1.0, childTimeout: 0.2)
        try #require(words.count == 4 && words[0] == "busy", "the child logged \(words)")
        let waited = try #require(Double(words[1]))
        #expect(waited >= 0.15 && waited < 0.9, "gave up after \(waited) s with a 0.2 s timeout")
        #expect(words[2] == "true")
        #expect(words[3] == "saved")
        #expect(try KilledWriterTests.integers(Connection(.file(url.path)), "SELECT COUNT(*) FROM ZROW") == [[1]])
    }
}
