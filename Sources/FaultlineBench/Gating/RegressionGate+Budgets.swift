import Foundation

extension RegressionGate {
    /// Checks `result`'s median paired ratio to its reference against its
    /// budget. The spread of the paired ratios is shown beside the median,
    /// so a line near its budget reads as such.
    mutating func checkBudget(_ result: BenchmarkResult, _ thresholds: GateThresholds) {
        guard let budget = thresholds.budget(for: result.id) else { return }
        guard let comparison = result.comparison else {
            note("\(result.id): budget ≤ \(Self.ratio(budget)) but no ratio to a reference (not checked)")
            return
        }
        record(.budget)
        let ratio = comparison.wallTimeRatio
        var measured = Self.ratio(ratio)
        if let paired = result.pairedWallTimeRatios, let low = paired.min(), let high = paired.max() {
            measured += " (paired \(Self.ratio(low))–\(Self.ratio(high)), n = \(paired.count))"
        }
        if ratio > budget {
            fail(GateFinding(
                kind: .budget, benchmark: result.id, subject: "ratio to \(comparison.reference)",
                before: "budget ≤ \(Self.ratio(budget))", after: measured,
                reason: "median paired ratio \(Self.ratio(ratio)) is over its budget of \(Self.ratio(budget))"))
        } else {
            pass("\(result.id): \(measured) within its budget ≤ \(Self.ratio(budget))")
        }
    }

    static func ratio(_ value: Double) -> String { String(format: "%.2fx", value) }
}
