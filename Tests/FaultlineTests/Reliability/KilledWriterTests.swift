import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

#if canImport(Glibc)
import Glibc
#endif

/// A process killed with SIGKILL while it saves, or while it batch-inserts,
/// again and again on one store: every save or batch it reported committed is
/// in the store, none is there in part, derived counts and key reservations
/// stay right, and `PRAGMA integrity_check` passes after every kill.
///
/// The parent re-executes this test binary as a child (TestChildProcess) that
/// runs only a child test; the child appends each committed sequence number
/// to a log (ProgressLog) and the parent kills it at a random moment after its
/// first one (ChildKiller).
@Suite("Processes killed while writing lose no committed write and leave no partial one", .serialized)
struct KilledWriterTests {
    static let saveVariable = "FAULTLINE_KILL_SAVES_STORE"
    static let batchVariable = "FAULTLINE_KILL_BATCH_STORE"
    static let saveKills = 50
    static let batchKills = 10
    static let rowsPerSave = 10
    static let rowsPerBatch = 20_000
    /// A child nobody kills gives up after this long.
    static let childDeadline: TimeInterval = 30

    /// Batches of rows with a derived count; bulk rows for batch inserts.
    static var model: ManagedObjectModel { ManagedObjectModel {
        Entity("Batch") {
            Attribute("seq", .integer64)
            Relationship("rows", to: "Row", inverse: "batch", toMany: true, deleteRule: .cascadeDeleteRule)
            Derived("rowCount", .integer64, "rows.@count")
        }
        Entity("Row") {
            Attribute("seq", .integer64)
            Attribute("payload", .string)
            Relationship("batch", to: "Batch", inverse: "rows")
        }
        Entity("Bulk") {
            Attribute("seq", .integer64)
            Attribute("payload", .string)
        }
    } }

    struct ChildNotKilled: Error {}

    static func payload(_ seq: Int, _ index: Int) -> String {
        String(repeating: "\(index % 10)", count: 80) + "-\(seq)-\(index)"
    }

    static func newStore() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("store.sqlite")
        _ = try PersistentContainer(model: model, location: .file(url))
        return url
    }

    static func integers(_ connection: Connection, _ sql: String) throws -> [[Int64]] {
        try connection.rows(sql).map { row in row.map { if case .integer(let value) = $0 { value } else { -1 } } }
    }

    // MARK: - Saves

    @Test("child: save batches of rows until killed, when asked")
    func saveUntilKilled() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.saveVariable] else { return }
        let container = try PersistentContainer(model: Self.model, location: .file(URL(fileURLWithPath: path)))
        let log = ProgressLog(path: path + ".log")
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            var last = FetchRequest(entityName: "Batch")
            last.sortDescriptors = [FetchSortDescriptor(key: "seq", ascending: false)]
            last.fetchLimit = 1
            var seq = Int(try context.fetch(last).first?.value(forKey: "seq") as? Int64 ?? 0)
            let start = Date()
            while Date().timeIntervalSince(start) < Self.childDeadline {
                seq += 1
                let batch = try context.insertNewObject(forEntityName: "Batch")
                try batch.setValue(Int64(seq), forKey: "seq")
                for index in 0..<Self.rowsPerSave {
                    let row = try context.insertNewObject(forEntityName: "Row")
                    try row.setValue(Int64(seq), forKey: "seq")
                    try row.setValue(Self.payload(seq, index), forKey: "payload")
                    try row.setValue(batch, forKey: "batch")
                }
                try context.save()
                log.append(seq)
                context.reset()
            }
        }
        throw ChildNotKilled()
    }

    @Test("parent: 50 kills during saves: every reported save is there whole, nothing partial, integrity ok")
    func killedDuringSaves() throws {
        guard ProcessInfo.processInfo.environment[Self.saveVariable] == nil else { return }
        let url = try Self.newStore()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let log = ProgressLog(path: url.path + ".log")
        try Self.kill(Self.saveKills, child: "saveUntilKilled", variable: Self.saveVariable, store: url, log: log,
                      seed: 2_029, maximumDelay: 0.03) { kill in
            try Self.expectSaves(url, reported: log.numbers, after: kill)
        }
        let stored = try Self.integers(Connection(.file(url.path)), "SELECT COUNT(*) FROM ZBATCH")[0][0]
        print("killed saves: \(Self.saveKills) kills, \(log.numbers.count) saves reported, \(stored) in the store, none lost or partial")
    }

    /// Runs the child test `child` on `url` `times` times, killing it each
    /// time at a random moment (up to `maximumDelay` seconds) after it logged
    /// one more commit, then runs `check` with the kill's number.
    static func kill(_ times: Int, child: String, variable: String, store url: URL, log: ProgressLog, seed: UInt64,
                     maximumDelay: TimeInterval, check: (Int) throws -> Void) throws {
        var generator = SeededGenerator(seed: seed)
        for kill in 1...times {
            let reportedBefore = log.numbers.count
            let outcome = try ChildKiller.run(
                filter: "KilledWriterTests/\(child)", variable: variable, value: url.path,
                delay: Double.random(in: 0...maximumDelay, using: &generator)) { log.numbers.count > reportedBefore }
            try #require(outcome.reason == .uncaughtSignal && outcome.status == SIGKILL,
                         "kill \(kill): the child ended on its own (status \(outcome.status))")
            try #require(outcome.killedWhileRunning && log.numbers.count > reportedBefore,
                         "kill \(kill): the child never logged a commit before the kill")
            try check(kill)
        }
    }

    /// The store after a kill: integrity ok; batches numbered 1…n without a
    /// gap, each with all its rows and the right derived count; every reported
    /// batch there; keys reserved above every key used.
    static func expectSaves(_ url: URL, reported: [Int], after kill: Int) throws {
        // Read-write, as the next process opens it: recovery runs first.
        let connection = try Connection(.file(url.path))
        #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"), "kill \(kill)")
        let batches = try integers(connection, """
            SELECT b.ZSEQ, b.ZROWCOUNT, (SELECT COUNT(*) FROM ZROW r WHERE r.ZBATCH = b.Z_PK AND r.ZSEQ = b.ZSEQ)
            FROM ZBATCH b ORDER BY b.ZSEQ
            """)
        #expect(batches.map { $0[0] } == (0..<Int64(batches.count)).map { $0 + 1 }, "kill \(kill): batches missing or repeated")
        let incomplete = batches.filter { $0[1] != Int64(rowsPerSave) || $0[2] != Int64(rowsPerSave) }
        #expect(incomplete.isEmpty, "kill \(kill): batches saved in part: \(incomplete.prefix(3))")
        #expect(try integers(connection, "SELECT COUNT(*) FROM ZROW WHERE ZBATCH IS NULL OR ZBATCH NOT IN (SELECT Z_PK FROM ZBATCH)")
            == [[0]], "kill \(kill): orphaned rows")
        let stored = Set(batches.map { Int($0[0]) })
        let lost = reported.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "kill \(kill): reported saves missing from the store: \(lost.prefix(5))")
        try expectKeysReserved(connection, after: kill)
    }

    /// `Z_PRIMARYKEY.Z_MAX` of every entity is at least its largest key.
    static func expectKeysReserved(_ connection: Connection, after kill: Int) throws {
        for (table, entity) in [("ZBATCH", "Batch"), ("ZROW", "Row"), ("ZBULK", "Bulk")] {
            let rows = try integers(connection, """
                SELECT COALESCE((SELECT MAX(Z_PK) FROM \(table)), 0), (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = '\(entity)')
                """)
            #expect(rows[0][1] >= rows[0][0], "kill \(kill): \(entity) keys up to \(rows[0][0]) but Z_MAX \(rows[0][1])")
        }
    }

    // MARK: - Batch inserts

    @Test("child: batch-insert 20,000 rows at a time until killed, when asked")
    func batchInsertUntilKilled() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.batchVariable] else { return }
        let container = try PersistentContainer(model: Self.model, location: .file(URL(fileURLWithPath: path)))
        let log = ProgressLog(path: path + ".log")
        let connection = try Connection(.file(path))
        var seq = Int(try Self.integers(connection, "SELECT COALESCE(MAX(ZSEQ), 0) FROM ZBULK")[0][0])
        let start = Date()
        while Date().timeIntervalSince(start) < Self.childDeadline {
            seq += 1
            let current = seq
            let objects: [[String: Any]] = (0..<Self.rowsPerBatch).map { ["seq": Int64(current), "payload": Self.payload(current, $0)] }
            _ = try container.coordinator.execute(BatchInsertRequest(entityName: "Bulk", in: container.coordinator.model, objects: objects))
            log.append(seq)
        }
        throw ChildNotKilled()
    }

    @Test("parent: 10 kills during batch inserts: each batch is there whole or not at all")
    func killedDuringBatchInserts() throws {
        guard ProcessInfo.processInfo.environment[Self.batchVariable] == nil else { return }
        let url = try Self.newStore()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let log = ProgressLog(path: url.path + ".log")
        try Self.kill(Self.batchKills, child: "batchInsertUntilKilled", variable: Self.batchVariable, store: url, log: log,
                      seed: 2_030, maximumDelay: 0.15) { kill in
            let connection = try Connection(.file(url.path))
            #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"), "kill \(kill)")
            let counts = try Self.integers(connection, "SELECT ZSEQ, COUNT(*) FROM ZBULK GROUP BY ZSEQ ORDER BY ZSEQ")
            #expect(counts.allSatisfy { $0[1] == Int64(Self.rowsPerBatch) }, "kill \(kill): a batch in part: \(counts.filter { $0[1] != Int64(Self.rowsPerBatch) })")
            let stored = Set(counts.map { Int($0[0]) })
            #expect(log.numbers.allSatisfy(stored.contains), "kill \(kill): a reported batch is missing")
            try Self.expectKeysReserved(connection, after: kill)
        }
        let batches = try Self.integers(Connection(.file(url.path)), "SELECT COUNT(DISTINCT ZSEQ) FROM ZBULK")[0][0]
        print("killed batch inserts: \(Self.batchKills) kills, \(log.numbers.count) batches reported, \(batches) in the store, none partial")
    }
}
