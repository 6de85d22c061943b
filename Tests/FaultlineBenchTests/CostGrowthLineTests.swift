import Foundation
import Testing
@testable import FaultlineBench

/// A growth line varies only the parameters that set its items: a fetch limit
/// or the number of objects a save changed makes another line, so a cost
/// growing at a constant 100 items is not averaged into a slope through a
/// line that reads every row, and the gate cannot pass on the mixture.
@Suite("Cost growth lines split by every parameter that does not set the items")
struct CostGrowthLineTests {
    private func line(_ name: String, _ parameters: [String: ParameterValue], items: Int, vmSteps: Double) -> BenchmarkResult {
        let id = ([name] + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        var result = BenchmarkResult(
            id: id, suite: "Test", name: name, parameters: parameters, items: items,
            warmupIterations: 1, iterations: 1, reference: nil, metrics: [:], comparison: nil, queryPlans: nil)
        result.metrics["vmSteps"] = MetricResult(unit: "count", direction: .lowerIsBetter, samples: [vmSteps])
        return result
    }

    /// `sort` at 100, 1,000 and 10,000 rows: every row (linear), and the top
    /// 100, whose cost still grows as rows^0.8 while its items stay at 100.
    private func sortReport() -> Report {
        let lines = [100, 1_000, 10_000].flatMap { rows in
            [line("sort", ["rows": .int(rows), "limit": .int(0), "index": .string("no")], items: rows, vmSteps: 40 * Double(rows)),
             line("sort", ["rows": .int(rows), "limit": .int(100), "index": .string("no")], items: 100,
                  vmSteps: 40 * pow(Double(rows), 0.8))]
        }
        return Report(suite: "Test", metadata: Fixtures.metadata(), benchmarks: lines)
    }

    @Test("A fetch limit makes its own line; the limited line, at constant items, gets no exponent")
    func limitSplits() throws {
        let report = sortReport()
        #expect(SizeParameters.of(report.benchmarks)["sort"] == ["rows"])
        let growths = CostGrowth.all(in: report)
        #expect(growths.map(\.line) == ["sort index=no limit=0"])
        let exponent = try #require(growths.first?.exponent)
        #expect(abs(exponent - 1) < 1e-9)
        #expect(CostGrowth.lines(in: report).map(\.line) == ["sort index=no limit=0", "sort index=no limit=100"])
    }

    @Test("The gate holds the every-row line to its bound and notes the limited one instead of passing the pooled fit")
    func gateOnSplitLines() throws {
        let thresholds = GateThresholds(benchmarks: [BenchmarkOverride(regex: "^sort", maximumGrowth: 0.5)])
        let gate = RegressionGate(baseline: sortReport(), current: sortReport(), thresholds: thresholds)
        #expect(!gate.passed)
        #expect(gate.regressions.map(\.benchmark) == ["sort index=no limit=0"])
        #expect(gate.notes.contains { $0.contains("limit=100") && $0.contains("keeps 100 items at every size") })
    }

    @Test("Changed objects split like a limit; items set by controllers fit against controllers")
    func observingShape() throws {
        let lines = [1, 10, 100].flatMap { controllers in
            [1, 100].map { changed in
                line("observe", ["rows": .int(10_000), "controllers": .int(controllers), "changed": .int(changed)],
                     items: controllers, vmSteps: Double(changed * controllers * controllers))
            }
        }
        let growths = CostGrowth.all(in: Report(suite: "Test", metadata: Fixtures.metadata(), benchmarks: lines))
        #expect(growths.map(\.line) == ["observe changed=1 rows=10000", "observe changed=100 rows=10000"])
        #expect(growths.allSatisfy { abs($0.exponent - 2) < 1e-9 && $0.sizes == [1, 10, 100] })
    }

    @Test("A parameter moving in step with the size (lookups = min(10,000, rows)) stays on the line")
    func companionsStay() throws {
        let lines = [1_000, 10_000, 100_000].map { rows in
            line("lookup", ["rows": .int(rows), "lookups": .int(min(10_000, rows))], items: min(10_000, rows),
                 vmSteps: 7 * Double(min(10_000, rows)))
        }
        let growths = CostGrowth.all(in: Report(suite: "Test", metadata: Fixtures.metadata(), benchmarks: lines))
        #expect(growths.map(\.line) == ["lookup"])
        #expect(growths.first?.sizes == [1_000, 10_000, 10_000])
    }
}
