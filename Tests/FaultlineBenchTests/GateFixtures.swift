import Foundation
@testable import FaultlineBench

extension SeededRandom {
    /// A standard normal deviate (Box–Muller).
    mutating func normal() -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let u2 = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}

/// Reports shaped like a suite run, for the gate tests: a raw reference
/// insert, a batch insert compared with it, and a faulting line with a
/// statement counter and a recorded query plan.
enum GateFixtures {
    struct Run {
        var seed: UInt64 = 1
        var samples = 10
        /// Relative standard deviation of every time sample.
        var noise = 0.03
        /// Scales every time: a faster or slower machine.
        var machineSpeed = 1.0
        /// Multiplies the batch insert's times only (a slower insert loop).
        var insertSlowdown = 1.0
        /// Statements added per fault (the faulting line fires 100 faults).
        var extraStatementsPerFault = 0
        var categoryPlan = "SEARCH ZARTICLE USING INDEX ZARTICLE_ZCATEGORY_INDEX (ZCATEGORY=?)"
        var buildConfiguration = "release"
        var allocatorSettings: String? = "dirty_decay_ms:10000 muzzy_decay_ms:0"
        /// Relative jitter of mallocsPerItem (allocator noise).
        var mallocNoise = 0.0
        /// Whether lines carry their reference's times taken beside them.
        var paired = false
        /// Scales the reference line's own times only: the machine was slow
        /// while it ran, and fast again for the lines.
        var referenceLineSlowdown = 1.0
        /// More lines compared with the reference, `other.0` … (many time tests in one run).
        var extraLines = 0
    }

    static func report(_ run: Run) -> Report {
        var random = SeededRandom(seed: run.seed)
        func times(_ median: Double) -> [Double] {
            (0..<run.samples).map { _ in median * run.machineSpeed * exp(run.noise * random.normal()) }
        }
        let faults = 100
        let statements = Double(1 + faults * (1 + run.extraStatementsPerFault))
        let mallocs = 4.0853 * (1 + run.mallocNoise)
        let lines = [
            result("raw.insert", reference: nil, wallTimes: times(1_000_000 * run.referenceLineSlowdown),
                   counters: ["statementsExecuted": 1002]),
            result("batch.insert", reference: "raw.insert", wallTimes: times(2_500_000 * run.insertSlowdown),
                   counters: ["statementsExecuted": 1002, Metric.mallocsPerItem: mallocs]),
            result("fault.lazy", reference: "raw.insert", wallTimes: times(3_000_000),
                   counters: ["statementsExecuted": statements, "rowsReturned": Double(faults)],
                   plans: ["byCategory": run.categoryPlan]),
        ] + (0..<run.extraLines).map {
            result("other.\($0)", reference: "raw.insert", wallTimes: times(2_000_000), counters: [:])
        }
        let benchmarks = lines.map { line -> BenchmarkResult in
            guard run.paired, line.reference != nil else { return line }
            var line = line
            line.metrics[Metric.referenceWallTime] = MetricResult(
                unit: "ns", direction: .lowerIsBetter, samples: times(1_000_000))
            return line
        }
        var metadata = Fixtures.metadata()
        metadata.buildConfiguration = run.buildConfiguration
        metadata.allocatorSettings = run.allocatorSettings
        return Report(suite: "Test", metadata: metadata, benchmarks: ReferenceComparison.attach(to: benchmarks))
    }

    private static func result(
        _ name: String, reference: String?, wallTimes: [Double], counters: [String: Double],
        plans: [String: String]? = nil
    ) -> BenchmarkResult {
        var metrics = [Metric.wallTime: MetricResult(unit: "ns", direction: .lowerIsBetter, samples: wallTimes)]
        for (counter, value) in counters {
            let unit = counter == Metric.mallocsPerItem ? "count/item" : "count"
            metrics[counter] = MetricResult(
                unit: unit, direction: .lowerIsBetter, samples: Array(repeating: value, count: wallTimes.count))
        }
        return BenchmarkResult(
            id: BenchmarkID.make(name: name, parameters: ["rows": .int(1000)]), suite: "Test", name: name,
            parameters: ["rows": .int(1000)], items: 1000, warmupIterations: 1, iterations: wallTimes.count,
            reference: reference, metrics: metrics, comparison: nil, queryPlans: plans)
    }
}
