import FaultlineBench
import Foundation

/// A `--touch` sweep read back from the Faulting suite's report: for each
/// profile (graph, key paths, order) measured at two or more touched
/// fractions, the cheapest strategy at each fraction — by wall time and by
/// statements — and, where it changes between two fractions, the fraction
/// where the new one overtakes the old, interpolated linearly between the
/// two measured costs (both grow about linearly with the parents touched).
public enum TouchSweep {
    public struct Crossover: Equatable, Sendable {
        public let from: String
        public let to: String
        /// The measured fractions it lies between, and the interpolated one.
        public let between: (Double, Double)
        public let at: Double

        public static func == (a: Crossover, b: Crossover) -> Bool {
            a.from == b.from && a.to == b.to && a.between == b.between && a.at == b.at
        }
    }

    public struct Result: Sendable {
        /// `graph=… keypaths=… order=…`.
        public let profile: String
        public let metric: String
        /// The measured fractions, ascending, and the cheapest strategy at each.
        public let cheapest: [(fraction: Double, strategy: String)]
        public let crossovers: [Crossover]
    }

    /// The sweeps in `report`, per profile and per metric (`wallTime`, `statementsExecuted`).
    public static func results(of report: Report, metrics: [String] = [Metric.wallTime, "statementsExecuted"]) -> [Result] {
        var groups: [String: [(fraction: Double, strategy: String, result: BenchmarkResult)]] = [:]
        for result in report.benchmarks {
            guard case .string(let touch)? = result.parameters["touch"], let fraction = Double(touch),
                  case .string(let strategy)? = result.parameters["strategy"], strategy != "raw" else { continue }
            let profile = result.parameters.filter { $0.key != "touch" && $0.key != "strategy" }
                .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            groups[profile, default: []].append((fraction, strategy, result))
        }
        var results: [Result] = []
        for (profile, lines) in groups.sorted(by: { $0.key < $1.key }) {
            let fractions = Set(lines.map(\.fraction)).sorted()
            guard fractions.count >= 2 else { continue }
            for metric in metrics {
                var cost: [String: [Double: Double]] = [:]
                for line in lines { if let value = line.result.median(metric) { cost[line.strategy, default: [:]][line.fraction] = value } }
                var cheapest: [(fraction: Double, strategy: String)] = []
                for fraction in fractions {
                    let measured = cost.compactMap { strategy, values in values[fraction].map { (strategy, $0) } }
                    guard let best = measured.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }) else { continue }
                    cheapest.append((fraction, best.0))
                }
                var crossovers: [Crossover] = []
                for (earlier, later) in zip(cheapest, cheapest.dropFirst()) where earlier.strategy != later.strategy {
                    guard let a1 = cost[earlier.strategy]?[earlier.fraction], let a2 = cost[earlier.strategy]?[later.fraction],
                          let b1 = cost[later.strategy]?[earlier.fraction], let b2 = cost[later.strategy]?[later.fraction] else { continue }
                    // The difference (new − old) is ≥ 0 at the earlier fraction, ≤ 0 at the later one.
                    let before = b1 - a1, after = b2 - a2
                    let share = before - after > 0 ? before / (before - after) : 0.5
                    let at = earlier.fraction + (later.fraction - earlier.fraction) * min(max(share, 0), 1)
                    crossovers.append(Crossover(from: earlier.strategy, to: later.strategy, between: (earlier.fraction, later.fraction), at: at))
                }
                results.append(Result(profile: profile, metric: metric, cheapest: cheapest, crossovers: crossovers))
            }
        }
        return results
    }

    /// One line per profile and metric, as the suite prints them after a run.
    public static func summary(of report: Report) -> [String] {
        results(of: report).map { result in
            let what = result.metric == Metric.wallTime ? "wall time" : "statements"
            var runs: [(strategy: String, fractions: [Double])] = []
            for (fraction, strategy) in result.cheapest {
                if runs.last?.strategy == strategy { runs[runs.count - 1].fractions.append(fraction) } else { runs.append((strategy, [fraction])) }
            }
            let cheapest = runs.map { run in
                "\(run.strategy) at \(run.fractions.count == 1 ? text(run.fractions[0]) : "\(text(run.fractions[0]))–\(text(run.fractions[run.fractions.count - 1]))")"
            }.joined(separator: ", ")
            let crossings = result.crossovers.map {
                "; \($0.to) overtakes \($0.from) at touch ≈ \(text($0.at)) (between \(text($0.between.0)) and \(text($0.between.1)))"
            }.joined()
            return "touch sweep \(result.profile), by \(what): cheapest \(cheapest)\(crossings)"
        }
    }

    static func text(_ fraction: Double) -> String {
        String(format: "%.2g", fraction)
    }
}
