import Foundation
import Testing
import FaultlineSQLite
@testable import FaultlineBench

/// A benchmark's `verify` step runs after every iteration, outside every
/// metric, and a failing one fails the line as a throwing benchmark does.
@Suite("Verifying a line's work")
struct VerificationTests {
    final class Log {
        var verified: [Int] = []
        var tornDown = 0
    }

    private func run(_ suite: BenchmarkSuite, _ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = suite.run(arguments: arguments) { output += $0 }
        return (status, output)
    }

    @Test("verify sees the measured state, after every iteration, warm-ups included, before tear-down")
    func order() throws {
        let log = Log()
        let suite = BenchmarkSuite("Verify", benchmarks: [
            Benchmark("line", items: 1, setUp: { 0 }, measure: { value in value = 7 },
                      verify: { value in log.verified.append(value) },
                      tearDown: { _ in log.tornDown += 1 }),
        ])
        let folder = try TemporaryFolder()
        #expect(run(suite, ["--iterations", "3", "--warmup", "2", "--json", folder.path("r.json"), "--quiet"]).status == 0)
        #expect(log.verified == [7, 7, 7, 7, 7])
        #expect(log.tornDown == 5)
    }

    @Test("A failing verify exits 1 naming the line and what differed, tears down, and leaves no report")
    func failure() throws {
        struct Wrong: Error, CustomStringConvertible { var description: String { "ZARTICLE row Z_PK = 3: ZTITLE is NULL" } }
        let log = Log()
        let suite = BenchmarkSuite("Verify", benchmarks: [
            Benchmark("ref", parameters: ["rows": 10], items: 10, setUp: { 0 }, measure: { _ in }),
            Benchmark("line", parameters: ["rows": 10], items: 10, reference: "ref", setUp: { 0 }, measure: { _ in },
                      verify: { _ in throw Wrong() }, tearDown: { _ in log.tornDown += 1 }),
        ])
        let folder = try TemporaryFolder()
        let path = folder.path("report.json")
        let result = run(suite, ["--iterations", "2", "--warmup", "0", "--json", path])
        #expect(result.status == 1)
        #expect(result.output.contains("error: benchmark 'line rows=10' failed: verification failed after a measured iteration of line rows=10: ZARTICLE row Z_PK = 3: ZTITLE is NULL"))
        #expect(log.tornDown == 1)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("Verification spends none of a line's time budget: a slow verify still gets every iteration")
    func budget() throws {
        let suite = BenchmarkSuite("Verify", benchmarks: [
            Benchmark("slow", items: 1, setUp: { 0 }, measure: { _ in },
                      verify: { _ in Thread.sleep(forTimeInterval: 0.2) }),
        ])
        let folder = try TemporaryFolder()
        let path = folder.path("report.json")
        let arguments = ["--iterations", "3", "--warmup", "0", "--max-seconds", "0.1", "--json", path, "--quiet"]
        #expect(run(suite, arguments).status == 0)
        #expect(try ReportFile.read(path).benchmarks.first?.iterations == 3)
    }

    @Test("VerificationFailure reads as what differed")
    func failureText() {
        #expect(VerificationFailure("ZCATEGORY has 99 rows, expected 100").description == "ZCATEGORY has 99 rows, expected 100")
    }

    /// A line that measures nothing, verified by `verify`.
    private func idle(verify: ((Int) throws -> Void)?) throws -> BenchmarkResult {
        let suite = BenchmarkSuite("Verify", benchmarks: [
            Benchmark("idle", items: 1, setUp: { 0 }, measure: { value in value += 1 }, verify: verify),
        ])
        let folder = try TemporaryFolder()
        let path = folder.path("report.json")
        #expect(run(suite, ["--iterations", "3", "--warmup", "0", "--json", path, "--quiet"]).status == 0)
        return try #require(try ReportFile.read(path).benchmarks.first)
    }

    @Test("A verify that allocates, runs SQL and takes time leaves every metric of the line as without it")
    func outsideMetrics() throws {
        let heavy = try idle { _ in
            // 4 MB, 1,000 statements, 50 ms: far above what the idle measure costs.
            let payload = (0..<1_000).map { _ in [UInt8](repeating: 1, count: 4_096) }
            blackHole(payload)
            let connection = try Connection(.inMemory)
            for _ in 0..<1_000 { _ = try connection.scalar("SELECT 1") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let plain = try idle(verify: nil)
        for result in [heavy, plain] {
            // Bytes are per thread: other tests running in parallel cannot add to them.
            #expect(try #require(result.median(Metric.allocatedBytes)) < 100_000)
            // Statement counts are process-wide; the idle measure's window is
            // too short for a parallel test to add a hundred.
            #expect(try #require(result.median("statementsExecuted")) < 100)
            #expect(try #require(result.median(Metric.wallTime)) < 50_000_000)
        }
    }
}
