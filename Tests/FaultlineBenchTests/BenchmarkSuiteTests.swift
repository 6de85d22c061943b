import Foundation
import Testing
import FaultlineCommandLine
import FaultlineSQLite
@testable import FaultlineBench

/// A suite runs what its filter selects plus their references, measures only
/// the measured closure, and writes a report or nothing at all.
@Suite("Running a suite")
struct BenchmarkSuiteTests {
    struct Failure: Error, CustomStringConvertible { var description: String { "deliberate failure" } }

    /// A reference that does nothing and a line that allocates `perItem` objects per item.
    private func suite(failing: Bool = false) -> BenchmarkSuite {
        final class Box {
            var value = 0
            var payload: [UInt8] = []
        }
        return BenchmarkSuite("Test", benchmarks: [
            Benchmark("ref", parameters: ["rows": 10], items: 10,
                      setUp: { [Box](repeating: Box(), count: 1) },
                      measure: { state in blackHole(state) }),
            Benchmark("line", parameters: ["rows": 10], items: 10, reference: "ref",
                      setUp: { () throws -> [Box] in
                          // Set-up work is never measured: allocate a lot here (about 20 MB).
                          (0..<5_000).map { _ in
                              let box = Box()
                              box.payload = [UInt8](repeating: 1, count: 4_096)
                              return box
                          }
                      },
                      measure: { state in
                          if failing { throw Failure() }
                          let connection = try Connection(.inMemory)
                          _ = try connection.rows("SELECT 1")
                          state.append(contentsOf: (0..<10).map { _ in Box() })
                      }),
            Benchmark("other", items: 1, setUp: { 0 }, measure: { value in value += 1 }),
        ])
    }

    private func run(_ suite: BenchmarkSuite, _ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = suite.run(arguments: arguments) { output += $0 }
        return (status, output)
    }

    @Test("A run writes a report with every metric, the comparison with the reference and its counters")
    func report() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("report.json")
        let result = run(suite(), ["--iterations", "3", "--warmup", "0", "--json", path])
        #expect(result.status == 0)
        #expect(result.output.contains("vs reference"))
        #expect(result.output.contains("report written to \(path)"))
        let report = try ReportFile.read(path)
        #expect(report.benchmarks.map(\.id) == ["ref rows=10", "line rows=10", "other"])
        let line = try #require(report.benchmarks.first { $0.name == "line" })
        #expect(line.iterations == 3)
        #expect(line.comparison?.reference == "ref rows=10")
        #expect((line.comparison?.wallTimeRatio ?? 0) > 0)
        for metric in [Metric.wallTime, Metric.cpuUserTime, Metric.cpuSystemTime, Metric.throughput,
                       Metric.mallocs, Metric.mallocsPerItem, Metric.allocatedBytes, Metric.peakResidentMemory,
                       Metric.bytesPerItem, Metric.pageFaults, Metric.pageFaultsPerItem, Metric.majorPageFaults,
                       "statementsPrepared", "statementsExecuted", "rowsReturned", "vmSteps"] {
            #expect(line.metrics[metric]?.samples.count == 3, "metric \(metric)")
        }
        // The measured body allocates ten boxes, a connection and a query; the
        // 20 MB of set-up are not counted. Bytes are per thread, so tests running
        // in parallel cannot add to them (allocation *counts* are process-wide).
        let mallocs = try #require(line.median(Metric.mallocs))
        #expect(mallocs >= 10)
        let bytes = try #require(line.median(Metric.allocatedBytes))
        #expect(bytes >= 10 * 16)
        #expect(bytes < 5_000_000)
        #expect(line.median(Metric.bytesPerItem) == bytes / Double(line.items))
        #expect((line.median("statementsExecuted") ?? 0) >= 1)
        #expect((line.median("rowsReturned") ?? 0) >= 1)
        #expect(report.metadata.sqliteVersion == Connection.sqliteVersion)
    }

    @Test("A line runs in pairs with its reference, alternating which goes first; its ratio is the pairs' median")
    func pairedWithReference() throws {
        final class Log { var calls: [String] = [] }
        let log = Log()
        let suite = BenchmarkSuite("Paired", benchmarks: [
            Benchmark("ref", items: 1, setUp: { 0 }, measure: { _ in log.calls.append("ref") }),
            Benchmark("line", items: 1, reference: "ref", setUp: { 0 }, measure: { _ in log.calls.append("line") }),
        ])
        let folder = try TemporaryFolder()
        let path = folder.path("paired.json")
        #expect(run(suite, ["--iterations", "4", "--warmup", "0", "--json", path, "--quiet"]).status == 0)
        #expect(log.calls == ["ref", "ref", "ref", "ref",
                              "ref", "line", "line", "ref", "ref", "line", "line", "ref"])
        let report = try ReportFile.read(path)
        let reference = try #require(report.benchmarks.first { $0.name == "ref" })
        #expect(reference.metrics[Metric.referenceWallTime] == nil && reference.comparison == nil)
        let line = try #require(report.benchmarks.first { $0.name == "line" })
        let walls = try #require(line.metrics[Metric.wallTime]?.samples)
        let references = try #require(line.metrics[Metric.referenceWallTime]?.samples)
        #expect(walls.count == 4 && references.count == 4)
        #expect(line.comparison?.pairedIterations == 4)
        #expect(line.comparison?.wallTimeRatio == Statistics(zip(walls, references).map { $0 / $1 }).median)
    }

    @Test("Warm-ups stop on the --max-seconds budget as measured iterations do, after at least one", arguments: [
        // 0.05 s a warm-up spends a 0.1 s budget after the second (the third on a slow machine)…
        (0.05, 2...3),
        // …and a warm-up longer than the budget is the only one.
        (0.15, 1...1),
    ])
    func warmupsKeepTheBudget(seconds: Double, expected: ClosedRange<Int>) throws {
        final class Count { var calls = 0 }
        let count = Count()
        let suite = BenchmarkSuite("Budget", benchmarks: [
            Benchmark("slow", items: 1, setUp: { 0 }, measure: { _ in
                count.calls += 1
                Thread.sleep(forTimeInterval: seconds)
            }),
        ])
        let folder = try TemporaryFolder()
        let path = folder.path("report.json")
        let arguments = ["--warmup", "40", "--iterations", "1", "--max-seconds", "0.1", "--json", path, "--quiet"]
        #expect(run(suite, arguments).status == 0)
        let line = try #require(try ReportFile.read(path).benchmarks.first)
        #expect(expected.contains(line.warmupIterations), "\(line.warmupIterations) warm-ups")
        #expect(count.calls == line.warmupIterations + 1)
    }

    @Test("A filter selects by id and brings the references along")
    func filterBringsReferences() {
        let listed = run(suite(), ["--filter", "^line", "--list"])
        #expect(listed.status == 0)
        #expect(listed.output == "ref rows=10\nline rows=10\n")
        #expect(run(suite(), ["--filter", "other", "--list"]).output == "other\n")
    }

    @Test("A flag's value may be attached with '=' (./tasks.sh bench --filter=REGEX passes it on); a flag without one may not")
    func attachedValues() throws {
        #expect(run(suite(), ["--filter=^line", "--list"]).output == "ref rows=10\nline rows=10\n")
        // Taken as given, even a value that starts like a flag.
        #expect(run(suite(), ["--filter=--", "--list"]).output.contains("--filter '--' matches no benchmark"))
        let folder = try TemporaryFolder()
        let path = folder.path("report.json")
        let arguments = ["--filter=other", "--iterations=2", "--warmup=0", "--max-seconds=5", "--json=\(path)", "--quiet"]
        #expect(run(suite(), arguments).status == 0)
        let report = try ReportFile.read(path)
        #expect(report.benchmarks.map(\.id) == ["other"] && report.benchmarks.first?.iterations == 2)
        #expect(try RunOptions.parse(["--profile=quick"]).profile == .quick)
        #expect(try SuiteProfile(arguments: ["--profile=full", "--iterations", "5"]) == .full)
        expectRefused(run(suite(), ["--list=yes"]), naming: "unknown argument '--list=yes'")
        expectRefused(run(suite(), ["--filter="]), naming: "--filter= needs a value")
        expectRefused(run(suite(), ["--iterations=0"]), naming: "--iterations needs an integer ≥ 1, got '0'")
        expectRefused(run(suite(), ["--profile=huge"]), naming: "--profile must be one of quick, standard, full, got 'huge'")
    }

    @Test("A failing benchmark exits 1 and leaves no report")
    func failure() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("report.json")
        let result = run(suite(failing: true), ["--iterations", "1", "--json", path])
        #expect(result.status == 1)
        #expect(result.output.contains("deliberate failure"))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("Bad command lines exit 2 with one line naming the problem", arguments: [
        (["--bogus"], "unknown argument '--bogus'"),
        (["--filter", "("], "invalid regular expression"),
        (["--iterations", "0"], "--iterations"),
        (["--warmup", "x"], "--warmup"),
        (["--max-seconds", "-1"], "--max-seconds"),
        (["--json"], "--json needs a value"),
        (["--profile", "huge"], "--profile must be one of quick, standard, full, got 'huge'"),
        (["--profile"], "--profile needs a value"),
        (["--filter", "nothing-matches-this"], "--filter 'nothing-matches-this' matches no benchmark"),
        (["--json", "/nonexistent-folder/report.json"], "does not exist"),
    ])
    func badArguments(arguments: [String], fragment: String) {
        let result = run(suite(), arguments)
        #expect(result.status == 2)
        #expect(result.output.contains(fragment))
    }

    @Test("A debug build is flagged in the table and the report")
    func debugFlag() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("report.json")
        let result = run(suite(), ["--iterations", "1", "--warmup", "0", "--json", path, "--filter", "other"])
        let report = try ReportFile.read(path)
        #if DEBUG
        #expect(report.metadata.buildConfiguration == "debug")
        #expect(result.output.contains("DEBUG BUILD"))
        #else
        #expect(report.metadata.buildConfiguration == "release")
        #expect(!result.output.contains("DEBUG BUILD"))
        #endif
    }
}

/// `--profile` picks a suite's sizes before it declares its benchmarks; the
/// last one given wins and its absence means `standard`.
@Suite("Suite profiles")
struct SuiteProfileTests {
    @Test("--profile NAME is read from anywhere in the arguments and picks that profile's value")
    func picks() throws {
        #expect(try SuiteProfile(arguments: []) == .standard)
        #expect(try SuiteProfile(arguments: ["--iterations", "5", "--profile", "quick"]) == .quick)
        #expect(try SuiteProfile(arguments: ["--profile", "quick", "--profile", "full"]) == .full)
        let quickSizes: [Int] = SuiteProfile.quick.pick(quick: [1], standard: [1, 2], full: [1, 2, 3])
        let fullSizes: [Int] = SuiteProfile.full.pick(quick: [1], standard: [1, 2], full: [1, 2, 3])
        #expect(quickSizes == [1])
        #expect(fullSizes == [1, 2, 3])
        #expect(try RunOptions.parse(["--profile", "full"]).profile == .full)
        #expect(throws: UsageError.self) { try SuiteProfile(arguments: ["--profile", "Quick"]) }
    }
}
