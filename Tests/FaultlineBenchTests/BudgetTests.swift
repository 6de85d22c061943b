import Foundation
import Testing
@testable import FaultlineBench

/// A budget bounds a line's median paired ratio to its reference, baseline or
/// not: over it fails with kind `budget`, the spread shown; within it passes.
@Suite("Budgets in the gate")
struct BudgetTests {
    typealias Run = GateFixtures.Run

    static func thresholds(_ entries: [BenchmarkOverride]) -> GateThresholds { GateThresholds(benchmarks: entries) }

    @Test("batch.insert runs at about 2.5x its reference: a 3x budget passes, a 2x budget fails with the spread")
    func overAndWithin() throws {
        let baseline = GateFixtures.report(Run(seed: 1, paired: true))
        let current = GateFixtures.report(Run(seed: 2, paired: true))
        let within = RegressionGate(baseline: baseline, current: current,
                                    thresholds: Self.thresholds([BenchmarkOverride(match: "batch.*", maximumRatio: 3)]))
        #expect(within.passed, "\(within.render())")
        #expect(within.checked[.budget] == 1)
        #expect(within.passes.contains { $0.hasPrefix("batch.insert rows=1000: 2.") && $0.contains("within its budget ≤ 3.00x") })
        #expect(within.render().contains("1 budget check(s)"))

        let over = RegressionGate(baseline: baseline, current: current,
                                  thresholds: Self.thresholds([BenchmarkOverride(match: "batch.*", maximumRatio: 2)]))
        let finding = try #require(over.failing.first)
        #expect(over.failing.count == 1)
        #expect(finding.kind == .budget)
        #expect(finding.benchmark == "batch.insert rows=1000")
        #expect(finding.subject == "ratio to raw.insert rows=1000")
        #expect(finding.before == "budget ≤ 2.00x")
        #expect(finding.after.contains("(paired ") && finding.after.contains("n = 10"))
        #expect(over.render().contains("REGRESSION [budget] batch.insert rows=1000"))
    }

    @Test("A line with no baseline is still held to its budget; an advisory budget reports without failing")
    func noBaselineAndAdvisory() throws {
        var baseline = GateFixtures.report(Run(seed: 1))
        baseline.benchmarks = []
        let current = GateFixtures.report(Run(seed: 2))
        let strict = RegressionGate(baseline: baseline, current: current,
                                    thresholds: Self.thresholds([BenchmarkOverride(match: "fault.*", maximumRatio: 1.5)]))
        #expect(strict.failing.map(\.kind) == [.budget])
        let advisory = RegressionGate(baseline: baseline, current: current,
                                      thresholds: Self.thresholds([BenchmarkOverride(match: "fault.*", maximumRatio: 1.5)]),
                                      advisory: [.budget])
        #expect(advisory.passed && advisory.regressions.count == 1)
    }

    @Test("The last matching entry that states a budget wins; entries without one leave it alone")
    func lastWins() {
        let thresholds = Self.thresholds([
            BenchmarkOverride(match: "*", maximumRatio: 10),
            BenchmarkOverride(match: "batch.*", maximumRatio: 3),
            BenchmarkOverride(match: "batch.*", minimumEffect: 0.2),
        ])
        #expect(thresholds.budget(for: "batch.insert rows=1000") == 3)
        #expect(thresholds.budget(for: "fault.lazy rows=1000") == 10)
        #expect(Self.thresholds([]).budget(for: "batch.insert rows=1000") == nil)
    }

    @Test("Debug builds are not held to budgets: a note says so")
    func debugBuilds() {
        let current = GateFixtures.report(Run(seed: 2, buildConfiguration: "debug"))
        let gate = RegressionGate(baseline: GateFixtures.report(Run(seed: 1)), current: current,
                                  thresholds: Self.thresholds([BenchmarkOverride(match: "batch.*", maximumRatio: 1)]))
        #expect(gate.checked[.budget] == nil)
        #expect(gate.failing.allSatisfy { $0.kind != .budget })
    }

    @Test("A thresholds file refuses a budget that is not a positive number", arguments: [
        (#"{"benchmarks": [{"match": "a*", "maximumRatio": 0}]}"#, "benchmarks[0].maximumRatio must be > 0"),
        (#"{"benchmarks": [{"match": "a*", "maximumRatio": -1.5}]}"#, "maximumRatio must be > 0"),
        (#"{"benchmarks": [{"match": "a*", "maximumRatio": "2x"}]}"#, "wrong type or value"),
        (#"{"benchmarks": [{"match": "a*", "maximumRatios": 2}]}"#, "maximumRatios"),
    ])
    func refused(json: String, fragment: String) {
        do {
            _ = try GateThresholds.parse(Data(json.utf8), path: "t.json")
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.description.contains(fragment), "\(error.description)")
        }
    }

    @Test("A budget in a file is read")
    func parsed() throws {
        let thresholds = try GateThresholds.parse(Data(#"{"benchmarks": [{"match": "batch.*", "suite": "Inserts", "maximumRatio": 1.5}]}"#.utf8), path: "t.json")
        #expect(thresholds.scoped(to: "Inserts").budget(for: "batch.typed rows=1000") == 1.5)
        #expect(thresholds.scoped(to: "Fetching").budget(for: "batch.typed rows=1000") == nil)
    }
}
