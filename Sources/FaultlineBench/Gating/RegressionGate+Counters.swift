import Foundation

extension RegressionGate {
    /// Compares the median of every counter metric of `current` with the
    /// baseline's, within the metric's tolerance, in its worse direction only.
    mutating func checkCounters(_ baseline: BenchmarkResult, _ current: BenchmarkResult, _ thresholds: GateThresholds) {
        for name in current.metrics.keys.sorted() {
            guard let after = current.metrics[name] else { continue }
            let setting = thresholds.resolve(metric: name, unit: after.unit, benchmark: current.id)
            guard setting.kind == .counter else { continue }
            guard let before = baseline.metrics[name] else {
                note("\(current.id): counter \(name) is new (not in the baseline)")
                continue
            }
            record(.counter)
            let old = before.statistics.median
            let new = after.statistics.median
            let worse = after.direction == .lowerIsBetter ? new - old : old - new
            let allowed = setting.tolerance(around: old)
            // Medians of counters are exact integers or ratios of them; allow
            // for the last bit of floating-point rounding only.
            let rounding = 1e-9 * Swift.max(1, Swift.abs(old))
            if worse > allowed + rounding {
                let change = ReportComparison.percentText(from: old, to: new)
                fail(GateFinding(
                    kind: .counter, benchmark: current.id, subject: name,
                    before: Self.number(old, after.unit), after: Self.number(new, after.unit),
                    reason: String(format: "deterministic counter %@ by %@ (%@) per iteration; tolerance %@",
                                   after.direction == .lowerIsBetter ? "grew" : "fell",
                                   Self.number(Swift.abs(new - old), after.unit), change, setting.toleranceText)))
            } else if worse < -(allowed + rounding) {
                improve(GateFinding(
                    kind: .counter, benchmark: current.id, subject: name,
                    before: Self.number(old, after.unit), after: Self.number(new, after.unit),
                    reason: String(format: "improved by %@ (%@) per iteration",
                                   Self.number(Swift.abs(new - old), after.unit), ReportComparison.percentText(from: old, to: new))))
            }
        }
        for name in baseline.metrics.keys.sorted() where current.metrics[name] == nil {
            guard let before = baseline.metrics[name],
                  thresholds.resolve(metric: name, unit: before.unit, benchmark: current.id).kind == .counter
            else { continue }
            note("\(current.id): counter \(name) is missing from the current report (not gated)")
        }
    }

    static func number(_ value: Double, _ unit: String) -> String {
        let text = value == value.rounded() && Swift.abs(value) < 1e15
            ? String(Int64(value)) : String(format: "%.4g", value)
        return unit.isEmpty ? text : "\(text) \(unit)"
    }
}
