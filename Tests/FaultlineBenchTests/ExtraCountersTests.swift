import Foundation
import Testing
@testable import FaultlineBench

/// A benchmark's `counters` closure adds deterministic counters to its
/// metrics; a reference may override parameters (`"profile strategy=raw"`).
@Suite("Extra counters and reference overrides")
struct ExtraCountersTests {
    final class Counter { var fired = 0 }

    @Test("Counters returned by the closure are recorded per iteration, unit count; harness names are kept")
    func extraCounters() throws {
        let benchmark = Benchmark(
            "line", items: 1,
            setUp: { Counter() },
            measure: { counter in counter.fired += 3 },
            counters: { counter in ["faultsFired": counter.fired, Metric.wallTime: -1, "statementsExecuted": -1] })
        let runner = BenchmarkRunner(options: try RunOptions.parse(["--iterations", "4", "--warmup", "0"]))
        let result = try runner.run(benchmark, suite: "Test")
        let fired = try #require(result.metrics["faultsFired"])
        #expect(fired.unit == "count")
        #expect(fired.samples == [3, 3, 3, 3])
        #expect(result.metrics[Metric.wallTime]?.samples.allSatisfy { $0 >= 0 } == true)
        #expect(result.metrics["statementsExecuted"]?.samples.allSatisfy { $0 >= 0 } == true)
    }

    @Test("Lines that differ by strategy compare with the reference of the overridden strategy")
    func referenceOverride() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("report.json")
        let suite = BenchmarkSuite("Test", benchmarks: ["raw", "lazy", "prefetch"].map { strategy in
            Benchmark("profile", parameters: ["rows": 10, "strategy": .string(strategy)], items: 10,
                      reference: strategy == "raw" ? nil : "profile strategy=raw",
                      setUp: { 0 }, measure: { value in value += 1 })
        })
        let status = suite.run(arguments: ["--iterations", "2", "--warmup", "0", "--json", path, "--filter", "lazy"]) { _ in }
        #expect(status == 0)
        let report = try ReportFile.read(path)
        // The filter brings the overridden reference along.
        #expect(report.benchmarks.map(\.id) == ["profile rows=10 strategy=raw", "profile rows=10 strategy=lazy"])
        let lazy = try #require(report.benchmarks.first { $0.parameters["strategy"] == "lazy" })
        #expect(lazy.comparison?.reference == "profile rows=10 strategy=raw")
        #expect(BenchmarkID.reference("ref", parameters: ["rows": 10]) == "ref rows=10")
    }
}
