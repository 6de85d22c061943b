import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

#if canImport(Glibc)
import Glibc
#endif

/// A process killed (SIGKILL) in the middle of a staged migration: the store it
/// leaves opens at a stage boundary, passes `PRAGMA integrity_check`, and the
/// next run completes the migration with every value intact.
///
/// The parent test writes a V1 store and re-executes this test binary as a
/// child that runs only `migrateUntilKilled` (as `ModelVersionHashChildProcessTests`
/// does). The child migrates V1 → V2 (lightweight, commits) and enters the
/// custom V2 → V3 stage, whose `willMigrate` keeps rewriting every row and
/// saving inside the stage's open transaction; after its first save it creates
/// a marker file. The parent waits for the marker and sends SIGKILL.
@Suite("A process killed during a staged migration leaves a store at a stage boundary")
struct KilledMigrationTests {
    typealias S = MigrationSupport

    /// The store path; set only in the child, which then migrates until killed.
    static let storeVariable = "FAULTLINE_MIGRATION_KILL_STORE"
    static let rowCount = 10_000
    /// The child gives up (and throws) after this long, should no one kill it.
    static let childDeadline: TimeInterval = 30
    /// The parent gives up waiting for the marker after this long.
    static let markerTimeout: TimeInterval = 20

    /// V1: name, payload, level (int16). V2 adds an optional `note`
    /// (ALTER TABLE ADD COLUMN). V3 widens `level` to int64 (table rebuild).
    static func model(_ version: Int) -> ManagedObjectModel {
        S.model {
            Entity("Reading") {
                Attribute("name", .string)
                Attribute("payload", .string)
                Attribute("level", version >= 3 ? .integer64 : .integer16)
                if version >= 2 { Attribute("note", .string) }
            }
        }
    }

    static func payload(_ index: Int) -> String {
        String(repeating: "\(index % 10)", count: 120) + "-\(index)"
    }

    static func markerPath(forStore path: String) -> String { path + ".in-stage-2" }

    /// The stages. The custom stage's `willMigrate` is `handler`.
    static func manager(willMigrate handler: @escaping MigrationStage.Handler) throws -> StagedMigrationManager {
        let v1 = try ModelVersion(model(1), label: "V1")
        let v2 = try ModelVersion(model(2), label: "V2")
        let v3 = try ModelVersion(model(3), label: "V3")
        return StagedMigrationManager([
            .lightweight([v1, v2], label: "V1 to V2: add note"),
            .custom(from: v2, to: v3, label: "V2 to V3: annotate and widen level", willMigrate: handler),
        ])
    }

    /// The child's handler: rewrites every row's note and saves every 500 rows,
    /// creating the marker after the first save, round after round until the
    /// process is killed (or the deadline passes, when it throws).
    static func endlessAnnotation(marker: String) -> MigrationStage.Handler {
        { context in
            let start = Date()
            var request = FetchRequest(entityName: "Reading")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let readings = try context.fetch(request)
            var round = 0
            while Date().timeIntervalSince(start) < childDeadline {
                round += 1
                for (index, reading) in readings.enumerated() {
                    try reading.setValue("round \(round) " + String(repeating: "x", count: 200), forKey: "note")
                    if (index + 1) % 500 == 0 {
                        try context.save()
                        if !FileManager.default.fileExists(atPath: marker) {
                            _ = FileManager.default.createFile(atPath: marker, contents: Data("stage 2".utf8))
                        }
                    }
                }
            }
            throw ChildNotKilled()
        }
    }

    struct ChildNotKilled: Error {}

    /// The rerun's handler: annotates every row once.
    static let annotateOnce: MigrationStage.Handler = { context in
        for reading in try context.fetch(FetchRequest(entityName: "Reading")) {
            try reading.setValue("annotated", forKey: "note")
        }
        try context.save()
    }

    /// Child: does nothing unless the parent set the store variable.
    @Test("child: migrate the store until killed, when asked")
    func migrateUntilKilled() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.storeVariable] else { return }
        let manager = try Self.manager(willMigrate: Self.endlessAnnotation(marker: Self.markerPath(forStore: path)))
        _ = try PersistentContainer(model: Self.model(3), location: .file(URL(fileURLWithPath: path)),
                                    migration: MigrationOptions(path: .staged(manager)))
    }

    /// How long after the child's first save in the stage each kill lands.
    static let killDelaysMilliseconds = [0, 10, 25, 50, 75, 100, 150, 200, 300, 400]

    @Test("parent: SIGKILL in the custom stage leaves the store at V2, intact; the next open completes",
          arguments: killDelaysMilliseconds)
    func killedMidMigration(delayMilliseconds: Int) throws {
        guard ProcessInfo.processInfo.environment[Self.storeVariable] == nil else { return }
        let url = S.temporaryStore()
        let marker = Self.markerPath(forStore: url.path)
        defer {
            S.remove(url)
            try? FileManager.default.removeItem(atPath: marker)
        }
        let count = Self.rowCount
        try S.populate(url, Self.model(1)) { context in
            for index in 0..<count {
                let reading = try context.insertNewObject(forEntityName: "Reading")
                try reading.setValue(String(format: "R%05d", index), forKey: "name")
                try reading.setValue(Self.payload(index), forKey: "payload")
                try reading.setValue(Int16(index % 30_000), forKey: "level")
            }
        }
        let original = try S.rows(url, "SELECT Z_PK, ZNAME, ZPAYLOAD, ZLEVEL FROM ZREADING ORDER BY Z_PK")
        #expect(original.count == count)

        // Run the child and kill it once it is inside the custom stage.
        let started = Date()
        let child = try TestChildProcess.start(filter: "KilledMigrationTests/migrateUntilKilled", variable: Self.storeVariable, value: url.path)
        var sawMarker = false
        while Date().timeIntervalSince(started) < Self.markerTimeout, child.isRunning {
            if FileManager.default.fileExists(atPath: marker) { sawMarker = true; break }
            usleep(10_000)
        }
        // Let it write a little more, so the kill lands among the stage's writes.
        if sawMarker { usleep(useconds_t(delayMilliseconds * 1_000)) }
        let killed = child.isRunning
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        let killedAfter = Date().timeIntervalSince(started)
        // What the dead process left: the WAL (stage 1's commit and whatever
        // pages of the open custom stage had spilled).
        let walBytes = (try? FileManager.default.attributesOfItem(atPath: url.path + "-wal")[.size] as? Int) ?? 0
        try #require(sawMarker, "the child never reached the custom stage (exit status \(child.terminationStatus))")
        #expect(killed)
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)

        // Read-only: integrity ok, at a stage boundary (V2: stage 1 committed,
        // the custom stage's transaction gone), every value intact.
        let hashes = try (1...3).map { try Self.model($0).checked().versionChecksum }
        do {
            var configuration = Connection.Configuration()
            configuration.readOnly = true
            let connection = try Connection(.file(url.path), configuration: configuration)
            #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"))
            let recorded = try StoreBootstrap.metadata(on: connection).modelVersionHash
            #expect(recorded.map { hashes.contains($0) } == true)
            #expect(recorded == hashes[1])
            let rows = try connection.rows("SELECT Z_PK, ZNAME, ZPAYLOAD, ZLEVEL FROM ZREADING ORDER BY Z_PK")
            #expect(rows == original)
            #expect(try connection.scalar("SELECT COUNT(*) FROM ZREADING WHERE ZNOTE IS NOT NULL") == .integer(0))
        }
        try S.expectMigrated(url, to: Self.model(2))

        // The next open completes the migration, data intact.
        let container = try PersistentContainer(
            model: Self.model(3), location: .file(url),
            migration: MigrationOptions(path: .staged(try Self.manager(willMigrate: Self.annotateOnce))))
        try S.expectMigrated(url, to: Self.model(3))
        #expect(try S.rows(url, "SELECT Z_PK, ZNAME, ZPAYLOAD, ZLEVEL FROM ZREADING ORDER BY Z_PK") == original)
        #expect(try S.rows(url, "SELECT COUNT(*) FROM ZREADING WHERE ZNOTE = 'annotated'") == [[.integer(Int64(count))]])
        try S.expectReadAndSave(container, entity: "Reading", key: "level", value: .integer(Int64(Int32.max) + 1))
        let total = Date().timeIntervalSince(started)
        print("killed migration (\(delayMilliseconds) ms into the stage): child killed after \(String(format: "%.2f", killedAfter)) s (WAL left: \(walBytes) bytes), test done after \(String(format: "%.2f", total)) s")
    }
}
