import Foundation
import Testing
@testable import FaultlineBench

/// A line measured at several sizes gets the exponent of each counter against
/// its size (log-log least squares, with the slope's standard error from three
/// sizes on), and the gate fails a line whose counters grow faster than the
/// `maximumGrowth` its thresholds allow — a quadratic caught at the quick sizes.
@Suite("Cost growth with size, fitted and gated")
struct CostGrowthTests {
    @Test("Two sizes fit exactly; three sizes give the slope's standard error")
    func fit() throws {
        let linear = try #require(CostGrowth.fit([(1_000, 5_000), (10_000, 50_000)]))
        #expect(abs(linear.exponent - 1) < 1e-12 && linear.standardError == nil)
        let quadratic = try #require(CostGrowth.fit([(10, 300), (100, 30_000), (1_000, 3_000_000)]))
        #expect(abs(quadratic.exponent - 2) < 1e-9)
        #expect((quadratic.standardError ?? 1) < 1e-9)
        let bent = try #require(CostGrowth.fit([(10, 10), (100, 150), (1_000, 900)]))
        #expect((bent.standardError ?? 0) > 0.05)
        #expect(CostGrowth.fit([(1_000, 5), (1_000, 6)]) == nil, "one size only")
        #expect(CostGrowth.fit([(1_000, 0), (10_000, 6)]) == nil, "a zero cost has no logarithm")
    }

    /// `fetch` at 1,000 and 10,000 rows, VM steps linear and mallocs as `mallocPower`.
    private func report(mallocPower: Double, strategy: String = "lazy") -> Report {
        let lines = [1_000, 10_000].map { rows -> BenchmarkResult in
            var line = BenchmarkResult(
                id: "fetch rows=\(rows) strategy=\(strategy)", suite: "Test", name: "fetch",
                parameters: ["rows": .int(rows), "strategy": .string(strategy)], items: rows,
                warmupIterations: 1, iterations: 1, reference: nil, metrics: [:], comparison: nil, queryPlans: nil)
            line.metrics["vmSteps"] = MetricResult(unit: "count", direction: .lowerIsBetter, samples: [Double(rows) * 40])
            line.metrics[Metric.mallocs] = MetricResult(
                unit: "count", direction: .lowerIsBetter, samples: [3 * pow(Double(rows), mallocPower)])
            return line
        }
        return Report(suite: "Test", metadata: Fixtures.metadata(), benchmarks: lines)
    }

    @Test("Every line at two sizes or more, per counter it has, named without its sizes")
    func linesOfAReport() throws {
        let growths = CostGrowth.all(in: report(mallocPower: 1.5))
        #expect(growths.map(\.line) == ["fetch strategy=lazy", "fetch strategy=lazy"])
        #expect(growths.map(\.metric) == ["vmSteps", Metric.mallocs])
        #expect(growths.map(\.sizes) == [[1_000, 10_000], [1_000, 10_000]])
        #expect(abs(growths[0].exponent - 1) < 1e-9 && abs(growths[1].exponent - 1.5) < 1e-9)
        #expect(growths[1].exponentText == "1.50")
    }

    @Test("The gate: a line within its bound passes, one growing as n^1.5 fails as growth, with or without a baseline")
    func gate() throws {
        let thresholds = GateThresholds(benchmarks: [BenchmarkOverride(match: "fetch *", maximumGrowth: 1.1)])
        let linear = RegressionGate(baseline: report(mallocPower: 1), current: report(mallocPower: 1), thresholds: thresholds)
        #expect(linear.passed && linear.checked[.growth] == 2, "\(linear.render())")
        #expect(linear.verdict.contains("2 growth check(s)"))
        let quadratic = RegressionGate(baseline: Report(suite: "Test", metadata: Fixtures.metadata(), benchmarks: []),
                                       current: report(mallocPower: 1.5), thresholds: thresholds)
        let finding = try #require(quadratic.regressions.first)
        #expect(quadratic.regressions.count == 1)
        #expect(finding.kind == .growth && finding.benchmark == "fetch strategy=lazy" && finding.subject == "mallocs growth")
        #expect(finding.reason == "mallocs grows as items^1.50, above its bound of 1.10")
        #expect(finding.after == "exponent 1.50 over 1000, 10000 items")
        let advisory = RegressionGate(baseline: report(mallocPower: 1.5), current: report(mallocPower: 1.5),
                                      thresholds: thresholds, advisory: [.growth])
        #expect(advisory.passed && advisory.regressions.count == 1)
    }

    @Test("A bound on a line run at one size is a note; maximumGrowth must be positive")
    func oneSizeAndBadBound() throws {
        var single = report(mallocPower: 1)
        single.benchmarks.removeLast()
        let gate = RegressionGate(baseline: single, current: single,
                                  thresholds: GateThresholds(benchmarks: [BenchmarkOverride(match: "fetch *", maximumGrowth: 1.1)]))
        #expect(gate.passed && gate.checked[.growth] == nil)
        #expect(gate.notes.contains { $0.contains("ran at one size only") })
        #expect(throws: ThresholdsFileError.self) {
            try GateThresholds.parse(Data(#"{"benchmarks": [{"match": "a*", "maximumGrowth": -1}]}"#.utf8), path: "t.json")
        }
        let parsed = try GateThresholds.parse(Data(#"{"benchmarks": [{"match": "a*", "maximumGrowth": 1.1}]}"#.utf8), path: "t.json")
        #expect(parsed.maximumGrowth(for: "abc") == 1.1)
    }
}
