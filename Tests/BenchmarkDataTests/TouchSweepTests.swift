import BenchmarkData
import Testing
@testable import FaultlineBench

/// `--touch 0.01,0.1,0.5,1`: one profile per fraction, in order, and after the
/// run the cheapest strategy at each fraction with the interpolated fraction
/// where one overtakes another — by wall time and by statements.
@Suite("A touch sweep: one profile per fraction, and where the cheapest strategy changes")
struct TouchSweepTests {
    /// Costs shaped like the Faulting suite's: lazy grows fast with the parents
    /// touched, prefetch costs about the same whatever is touched.
    static func report() -> Report {
        let metadata = RunMetadata(
            timestamp: "2026-01-01T00:00:00Z", gitCommit: "abc", gitDirty: false, cpuModel: "test CPU",
            coreCount: 2, memoryBytes: 1 << 30, kernel: "Linux", operatingSystem: "Debian",
            swiftVersion: "6.3", sqliteVersion: "3.40.1", jemallocVersion: "5.3.0",
            buildConfiguration: "release", peakMemoryIsPerIteration: true, arguments: [])
        struct Cost {
            let strategy: String
            let wall: (Double) -> Double
            let statements: (Double) -> Double
        }
        let costs = [
            Cost(strategy: "raw", wall: { f in 100 * f + 1 }, statements: { _ in 2.0 }),
            Cost(strategy: "lazy", wall: { f in 1_000 * f + 5 }, statements: { f in 1 + 1_000 * f }),
            Cost(strategy: "prefetch", wall: { f in 60 + 100 * f }, statements: { _ in 2.0 }),
            Cost(strategy: "full", wall: { f in 200 + 120 * f }, statements: { _ in 3.0 }),
        ]
        var benchmarks: [BenchmarkResult] = []
        for fraction in [0.01, 0.1, 0.5, 1] {
            for cost in costs {
                let parameters: [String: ParameterValue] = [
                    "graph": .string("1000x100"), "keypaths": .string("books"), "order": .string("random"),
                    "strategy": .string(cost.strategy), "touch": .string(String(fraction)),
                ]
                benchmarks.append(BenchmarkResult(
                    id: BenchmarkID.make(name: "profile", parameters: parameters), suite: "Faulting", name: "profile",
                    parameters: parameters, items: 1, warmupIterations: 0, iterations: 1, reference: nil,
                    metrics: [
                        Metric.wallTime: MetricResult(unit: "ns", direction: .lowerIsBetter, samples: [cost.wall(fraction)]),
                        "statementsExecuted": MetricResult(unit: "count", direction: .lowerIsBetter, samples: [cost.statements(fraction)]),
                    ],
                    comparison: nil))
            }
        }
        return Report(suite: "Faulting", metadata: metadata, benchmarks: benchmarks)
    }

    @Test("--touch with a list makes one profile per fraction, ascending; a repeat, a bad value or a sweep of a user's model is refused")
    func arguments() throws {
        let sweep = try ProfilerArguments(parsing: ["--touch", "0.5,0.01,1,0.1", "--graph", "100x10"])
        #expect(sweep.profiles.map(\.pattern.fraction) == [0.01, 0.1, 0.5, 1])
        #expect(Set(sweep.profiles.map(\.shape)).count == 1)
        for (arguments, message) in [
            (["--touch", "0.1,0.1"], "names 0.1 twice"), (["--touch", "0.1,"], "--touch expects a fraction"),
            (["--touch", "0.1,2"], "--touch expects a fraction"),
            (["--model", "m.xcdatamodeld", "--entity", "E", "--keypaths", "a", "--touch", "0.1,0.5"], "a --touch sweep profiles the generated graph"),
        ] {
            #expect { try ProfilerArguments(parsing: arguments) } throws: { "\($0)".contains(message) }
        }
    }

    @Test("By wall time lazy is cheapest at 0.01, prefetch from 0.1 on, overtaking at the interpolated fraction; by statements prefetch throughout")
    func crossovers() throws {
        let results = TouchSweep.results(of: Self.report())
        #expect(results.map(\.metric) == [Metric.wallTime, "statementsExecuted"])
        let wall = try #require(results.first)
        #expect(wall.profile == "graph=1000x100 keypaths=books order=random")
        #expect(wall.cheapest.map(\.strategy) == ["lazy", "prefetch", "prefetch", "prefetch"])
        let crossover = try #require(wall.crossovers.first)
        #expect(wall.crossovers.count == 1 && crossover.from == "lazy" && crossover.to == "prefetch")
        #expect(crossover.between == (0.01, 0.1))
        // lazy 1000f+5 = prefetch 60+100f at f = 55/900.
        #expect(abs(crossover.at - 55.0 / 900) < 1e-12)
        let statements = try #require(results.last)
        #expect(statements.cheapest.map(\.strategy) == ["prefetch", "prefetch", "prefetch", "prefetch"])
        #expect(statements.crossovers.isEmpty)
        let lines = TouchSweep.summary(of: Self.report())
        #expect(lines.first == "touch sweep graph=1000x100 keypaths=books order=random, by wall time: cheapest lazy at 0.01, prefetch at 0.1–1; prefetch overtakes lazy at touch ≈ 0.061 (between 0.01 and 0.1)")
    }
}
