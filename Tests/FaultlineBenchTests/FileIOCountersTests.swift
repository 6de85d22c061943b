import FaultlineSQLite
import Foundation
import Testing
@testable import FaultlineBench

/// Every measured iteration records SQLite's file operations under the
/// temporary directory: syncs, writes, reads and their bytes, opens — the
/// same figures on every iteration of the same work, nothing for a database
/// in memory, and none of the set-up's I/O. Each test counts its own folder:
/// the suites count the whole temporary directory, where other tests write.
@Suite("File I/O counters in every benchmark line")
struct FileIOCountersTests {
    /// A store in the temporary directory, rollback journal and full syncs, so
    /// each commit's I/O is fixed: journal written and synced, database
    /// written and synced, journal deleted.
    final class Store {
        let url: URL
        let connection: Connection
        init(in folder: TemporaryFolder) throws {
            url = URL(fileURLWithPath: folder.path("store.sqlite"))
            connection = try Connection(.file(url.path))
            try connection.execute("PRAGMA journal_mode=DELETE")
            try connection.execute("PRAGMA synchronous=FULL")
            try connection.execute("CREATE TABLE t (x TEXT)")
            // Set-up I/O: must not count.
            try connection.execute("INSERT INTO t VALUES ('set up')")
        }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test("Three commits: the same syncs and bytes on every iteration; per item is the total over the items")
    func commits() throws {
        let folder = try TemporaryFolder()
        let benchmark = Benchmark(
            "commits", items: 3, setUp: { try Store(in: folder) },
            measure: { store in
                for row in 0..<3 { try store.connection.execute("INSERT INTO t VALUES (?)", [.text("row \(row)")]) }
            })
        let runner = BenchmarkRunner(options: try RunOptions.parse(["--iterations", "4", "--warmup", "1"]),
                                     files: try IOScope(directory: folder.url.path))
        let result = try runner.run(benchmark, suite: "Test")
        let syncs = try #require(result.metrics[Metric.fileSyncs]?.samples)
        let written = try #require(result.metrics[Metric.fileBytesWritten]?.samples)
        #expect(Set(syncs).count == 1 && Set(written).count == 1, "syncs \(syncs), bytes \(written)")
        // Each commit syncs its journal and the database at least once.
        #expect(syncs[0] >= 6)
        // Each commit writes at least the changed page to the database.
        #expect(written[0] >= 3 * 4096)
        #expect(result.metrics[Metric.fileSyncsPerItem]?.samples.first == syncs[0] / 3)
        #expect(result.metrics[Metric.fileBytesWrittenPerItem]?.samples.first == written[0] / 3)
        #expect(result.metrics[Metric.fileSyncs]?.unit == "count")
        #expect(result.metrics[Metric.fileBytesWritten]?.unit == "bytes")
        let thresholds = GateThresholds()
        #expect(thresholds.resolve(metric: Metric.fileBytesWritten, unit: "bytes", benchmark: "commits").kind == .counter)
    }

    @Test("A database in memory does no file I/O")
    func inMemory() throws {
        let folder = try TemporaryFolder()
        let benchmark = Benchmark(
            "memory", items: 1, setUp: { try Connection(.inMemory) },
            measure: { connection in try connection.execute("CREATE TABLE t (x)"); try connection.execute("INSERT INTO t VALUES (1)") })
        let runner = BenchmarkRunner(options: try RunOptions.parse(["--iterations", "2", "--warmup", "0"]),
                                     files: try IOScope(directory: folder.url.path))
        let result = try runner.run(benchmark, suite: "Test")
        for metric in [Metric.fileSyncs, Metric.fileWrites, Metric.fileReads, Metric.fileOpens, Metric.fileBytesWritten] {
            #expect(result.metrics[metric]?.samples == [0, 0], "\(metric)")
        }
    }
}
