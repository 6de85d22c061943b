import Foundation

/// Compares the medians of two reports benchmark by benchmark.
///
/// A metric *regresses* when it moved in its worse direction by more than the
/// threshold, relative to the baseline's median. Benchmarks or metrics present
/// on one side only are listed, never fatal. (Statistical gating on ratios to
/// the raw reference is the gate's job; this is the simple, exact comparison.)
public struct ReportComparison {
    public struct Delta: Sendable {
        public var benchmark: String
        public var metric: String
        public var baseline: Double
        public var current: Double
        /// Signed change in percent of the baseline; positive means larger.
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
        let base = Dictionary(baseline.benchmarks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let now = Dictionary(current.benchmarks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
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

    /// A plain-text listing of every delta and of what one side lacks.
    public func render() -> String {
        var lines: [String] = []
        for delta in deltas {
            let verdict = delta.isRegression ? "REGRESSION" : "ok"
            lines.append(String(
                format: "%@  %@  %@: %.6g -> %.6g (%+.2f%%)",
                verdict.padding(toLength: 10, withPad: " ", startingAt: 0),
                delta.benchmark, delta.metric, delta.baseline, delta.current, delta.percentChange))
        }
        lines += onlyInBaseline.map { "only in baseline: \($0)" }
        lines += onlyInCurrent.map { "only in current: \($0)" }
        lines += missingMetrics.map { "metric missing on one side: \($0)" }
        let regressions = deltas.filter(\.isRegression).count
        lines.append(regressions == 0 ? "no regression" : "\(regressions) regression(s)")
        return lines.joined(separator: "\n")
    }
}

/// `faultline-bench compare BASELINE.json CURRENT.json [--threshold PCT] [--metric NAME …]`.
public enum CompareCommand {
    public static let usage = """
        usage: faultline-bench compare BASELINE.json CURRENT.json [--threshold PCT] [--metric NAME ...]
          --threshold PCT  tolerated change in the worse direction, in percent (default 5)
          --metric NAME    a metric to compare; repeatable or comma-separated (default wallTime)
        exit status: 0 no regression, 1 regression, 2 unreadable or incompatible input
        """

    /// Runs the command; returns the exit status.
    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        var files: [String] = []
        var threshold = 5.0
        var metrics: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--threshold":
                guard let text = remaining.popFirst(), let value = Double(text), value >= 0, value.isFinite else {
                    write("error: --threshold needs a non-negative number\n\(usage)\n")
                    return 2
                }
                threshold = value
            case "--metric":
                guard let text = remaining.popFirst(), !text.isEmpty else {
                    write("error: --metric needs a metric name\n\(usage)\n")
                    return 2
                }
                metrics += text.split(separator: ",").map(String.init)
            default:
                if argument.hasPrefix("--") {
                    write("error: unknown argument '\(argument)'\n\(usage)\n")
                    return 2
                }
                files.append(argument)
            }
        }
        guard files.count == 2 else {
            write("error: compare needs exactly two report files, got \(files.count)\n\(usage)\n")
            return 2
        }
        let baseline: Report
        let current: Report
        do {
            baseline = try ReportFile.read(files[0])
            current = try ReportFile.read(files[1])
        } catch {
            write("error: \(error)\n")
            return 2
        }
        let comparison = ReportComparison(
            baseline: baseline, current: current, thresholdPercent: threshold,
            metrics: metrics.isEmpty ? [Metric.wallTime] : metrics)
        write(comparison.render() + "\n")
        return comparison.hasRegression ? 1 : 0
    }
}
