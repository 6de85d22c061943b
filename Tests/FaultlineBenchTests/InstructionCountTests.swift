import Foundation
import Testing
@testable import FaultlineBench

/// `--instructions` reads callgrind's total from its output file, the flag
/// parses, and the gate holds instruction counts as counters within their
/// stated tolerance: a hash table's probes may move them by about 1 %, a
/// statement more per fault moves them far more.
@Suite("Instruction counts under callgrind")
struct InstructionCountTests {
    @Test("The total is the first event of callgrind's totals line, or of its summary line")
    func callgrindOutput() {
        let output = """
            version: 1
            creator: callgrind-3.19.0
            events: Ir
            summary: 6140851
            fn=(1) main
            3 12
            totals: 6140851
            """
        #expect(InstructionCount.Counter.totalInstructions(callgrindOutput: output) == 6_140_851)
        #expect(InstructionCount.Counter.totalInstructions(callgrindOutput: "events: Ir\nsummary: 42 7\n") == 42)
        #expect(InstructionCount.Counter.totalInstructions(callgrindOutput: "events: Ir\n") == nil)
    }

    @Test("--instructions is a flag of every suite")
    func flag() throws {
        #expect(try RunOptions.parse(["--instructions"]).instructions)
        #expect(try !RunOptions.parse([]).instructions)
        #expect(RunOptions.usage.contains("--instructions"))
    }

    @Test("Outside valgrind no line is collected")
    func notUnderValgrind() {
        #expect(InstructionCount.collectedLine == nil)
        #expect(!InstructionCount.collects("fetch.full rows=1000"))
    }

    @Test("The gate: 1 % more instructions passes, 3 % more fails as a counter regression", arguments: [(1.01, true), (1.03, false)])
    func tolerance(growth: Double, passes: Bool) throws {
        func report(_ instructions: Double) -> Report {
            var line = BenchmarkResult(
                id: "fetch.full rows=1000", suite: "Test", name: "fetch.full", parameters: ["rows": .int(1000)], items: 1000,
                warmupIterations: 1, iterations: 1, reference: nil, metrics: [:], comparison: nil, queryPlans: nil)
            line.metrics[Metric.instructions] = MetricResult(unit: "count", direction: .lowerIsBetter, samples: [instructions])
            line.metrics[Metric.instructionsPerItem] = MetricResult(
                unit: "count/item", direction: .lowerIsBetter, samples: [instructions / 1000])
            return Report(suite: "Test", metadata: Fixtures.metadata(), benchmarks: [line])
        }
        let gate = RegressionGate(baseline: report(6_140_851), current: report(6_140_851 * growth))
        #expect(gate.passed == passes, "\(gate.render())")
        #expect(gate.checked[.counter] == 2)
        if !passes {
            #expect(gate.regressions.map(\.subject) == [Metric.instructions, Metric.instructionsPerItem])
            #expect(gate.regressions.first?.reason.contains("±1.5%") == true)
        }
    }
}
