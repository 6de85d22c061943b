import Foundation

/// How a line's cost grows with its size: the exponent b of cost ≈ a · items^b,
/// fitted by least squares on log cost against log items over the sizes a
/// report measured the line at. 1 is linear; a line that should be linear and
/// fits 1.4 has a quadratic part that the small sizes already show, before it
/// bites at a million rows. Fitted on deterministic counters only (VM steps,
/// allocations, instructions, bytes written), so the exponent does not jitter.
public struct CostGrowth: Equatable, Sendable {
    /// The line without its sizes: its name and every parameter but the ones
    /// that set its items (`SizeParameters`).
    public var line: String
    public var metric: String
    /// Items per iteration at each size, ascending.
    public var sizes: [Int]
    public var exponent: Double
    /// The slope's standard error; nil with two sizes (a line through two
    /// points fits exactly).
    public var standardError: Double?

    /// The counters growth is fitted on, when a line has them.
    public static let metrics = ["vmSteps", Metric.mallocs, Metric.instructions, Metric.fileBytesWritten]

    /// The slope of log cost against log size, and its standard error with
    /// three or more points; nil with fewer than two distinct sizes or a
    /// non-positive value.
    public static func fit(_ points: [(size: Double, cost: Double)]) -> (exponent: Double, standardError: Double?)? {
        guard points.allSatisfy({ $0.size > 0 && $0.cost > 0 }), Set(points.map(\.size)).count >= 2 else { return nil }
        let xs = points.map { log($0.size) }, ys = points.map { log($0.cost) }
        let n = Double(points.count)
        let meanX = xs.reduce(0, +) / n, meanY = ys.reduce(0, +) / n
        let sxx = xs.reduce(0) { $0 + ($1 - meanX) * ($1 - meanX) }
        let sxy = zip(xs, ys).reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let slope = sxy / sxx
        guard points.count > 2 else { return (slope, nil) }
        let intercept = meanY - slope * meanX
        let residuals = zip(xs, ys).reduce(0) { $0 + pow($1.1 - (intercept + slope * $1.0), 2) }
        return (slope, (residuals / (n - 2) / sxx).squareRoot())
    }

    /// Every line of `report` measured at two or more sizes, per metric it has.
    public static func all(in report: Report) -> [CostGrowth] {
        var growths: [CostGrowth] = []
        for (line, results) in lines(in: report) where Set(results.map(\.items)).count >= 2 {
            for metric in metrics {
                let points = results.compactMap { result -> (size: Double, cost: Double)? in
                    guard let median = result.median(metric) else { return nil }
                    return (Double(result.items), median)
                }
                guard points.count == results.count, let (exponent, error) = fit(points) else { continue }
                growths.append(CostGrowth(line: line, metric: metric, sizes: results.map(\.items).sorted(),
                                          exponent: exponent, standardError: error))
            }
        }
        return growths
    }

    /// The report's results by line, sorted by line name.
    static func lines(in report: Report) -> [(line: String, results: [BenchmarkResult])] {
        let sizes = SizeParameters.of(report.benchmarks)
        let grouped = Dictionary(grouping: report.benchmarks) { lineName($0, sizes: sizes[$0.name] ?? []) }
        return grouped.keys.sorted().compactMap { line in grouped[line].map { (line, $0) } }
    }

    /// A line's name and the parameters that do not set its items, e.g.
    /// `raw.sort index=unindexed limit=100`.
    static func lineName(_ result: BenchmarkResult, sizes: Set<String>) -> String {
        let named = result.parameters.sorted { $0.key < $1.key }.compactMap { key, value -> String? in
            sizes.contains(key) ? nil : "\(key)=\(value)"
        }
        return ([result.name] + named).joined(separator: " ")
    }

    /// `1.02` or `1.02 ± 0.03`.
    public var exponentText: String {
        String(format: "%.2f", exponent) + (standardError.map { String(format: " ± %.2f", $0) } ?? "")
    }
}
