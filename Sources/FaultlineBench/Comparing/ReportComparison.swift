import Foundation

/// Compares the medians of two reports benchmark by benchmark.
///
/// A metric *regresses* when it moved in its worse direction by more than the
/// threshold, relative to the baseline's median; from a baseline of zero,
/// any move in the worse direction regresses (no percentage of zero can
/// tolerate it) and the change reads "from zero". Benchmarks or metrics present
/// on one side only are listed, never fatal. (Statistical gating on ratios to
/// the raw reference is the gate's job; this is the simple, exact comparison.)
public struct ReportComparison {
    public struct Delta: Sendable {
        public var benchmark: String
        public var metric: String
        public var baseline: Double
        public var current: Double
        /// Signed change in percent of the baseline; positive means larger.
        /// ±infinity from a zero baseline (`percentText` says "from zero").
        public var percentChange: Double
        public var isRegression: Bool
    }

    public var deltas: [Delta] = []
    public var onlyInBaseline: [String] = []
    public var onlyInCurrent: [String] = []
    /// "benchmark: metric" pairs a side lacks.
    public var missingMetrics: [String] = []

    public var hasRegression: Bool { deltas.contains(where: \.isRegression) }

    /// - Parameters:
    ///   - thresholdPercent: tolerated change in the worse direction.
    ///   - metrics: the metrics to compare.
    public init(baseline: Report, current: Report, thresholdPercent: Double, metrics: [String]) {
        let base = baseline.benchmarksByID
        let now = current.benchmarksByID
        onlyInBaseline = baseline.benchmarks.map(\.id).filter { now[$0] == nil }
        onlyInCurrent = current.benchmarks.map(\.id).filter { base[$0] == nil }
        for result in current.benchmarks {
            guard let old = base[result.id] else { continue }
            for metric in metrics {
                guard let before = old.metrics[metric], let after = result.metrics[metric] else {
                    missingMetrics.append("\(result.id): \(metric)")
                    continue
                }
                let baselineMedian = before.statistics.median
                let currentMedian = after.statistics.median
                let change = Self.percentChange(from: baselineMedian, to: currentMedian)
                let worse = after.direction == .lowerIsBetter ? change : -change
                deltas.append(Delta(
                    benchmark: result.id, metric: metric, baseline: baselineMedian,
                    current: currentMedian, percentChange: change, isRegression: worse > thresholdPercent))
            }
        }
    }

    static func percentChange(from baseline: Double, to current: Double) -> Double {
        if baseline == current { return 0 }
        guard baseline != 0 else { return current > 0 ? .infinity : -.infinity }
        return (current - baseline) / Swift.abs(baseline) * 100
    }

    /// The change as a reader wants it: `+8.00%`, or `from zero` when the
    /// baseline is zero, where a percentage would print as `+inf%`.
    static func percentText(from baseline: Double, to current: Double) -> String {
        let change = percentChange(from: baseline, to: current)
        return change.isFinite ? String(format: "%+.2f%%", change) : "from zero"
    }

    /// A plain-text listing of every delta and of what one side lacks.
    public func render() -> String {
        var lines: [String] = []
        for delta in deltas {
            let verdict = delta.isRegression ? "REGRESSION" : "ok"
            lines.append(String(
                format: "%@  %@  %@: %.6g -> %.6g (%@)",
                verdict.padding(toLength: 10, withPad: " ", startingAt: 0),
                delta.benchmark, delta.metric, delta.baseline, delta.current,
                Self.percentText(from: delta.baseline, to: delta.current)))
        }
        lines += onlyInBaseline.map { "only in baseline: \($0)" }
        lines += onlyInCurrent.map { "only in current: \($0)" }
        lines += missingMetrics.map { "metric missing on one side: \($0)" }
        let regressions = deltas.filter(\.isRegression).count
        lines.append(regressions == 0 ? "no regression" : "\(regressions) regression(s)")
        return lines.joined(separator: "\n")
    }
}
