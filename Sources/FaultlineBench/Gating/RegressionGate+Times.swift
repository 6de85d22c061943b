import Foundation

/// One time check made, waiting for the others: Holm's correction decides
/// whether it is significant only once every p-value of the run is known.
struct TimeTest: Sendable {
    var benchmark: String
    var subject: String
    var before: [Double]
    var after: [Double]
    var pValue: Double
    var alpha: Double
    /// The growth of the median ratio (0.3 = 30 % slower).
    var effect: Double
    /// The larger of the configured minimum effect and the baseline's own spread.
    var minimumEffect: Double
    var configuredMinimumEffect: Double

    var beforeMedian: Double { Statistics(before).median }
    var afterMedian: Double { Statistics(after).median }
}

extension RegressionGate {
    /// Tests every time metric of a line that has a reference: each sample is
    /// divided by the reference's wall time taken beside it (a paired run) or,
    /// for other metrics and older reports, by the median of the reference's
    /// samples from the same report; the baseline's ratios are tested against
    /// the current ones. The verdicts come from `settleTimeTests()`.
    mutating func checkTimes(_ baseline: BenchmarkResult, _ current: BenchmarkResult,
                             baseline baselineReport: [String: BenchmarkResult],
                             current currentReport: [String: BenchmarkResult], _ thresholds: GateThresholds) {
        guard let referenceName = current.reference else { return }
        let currentReferenceID = BenchmarkID.reference(referenceName, parameters: current.parameters)
        let baselineReferenceID = BenchmarkID.reference(baseline.reference ?? referenceName, parameters: baseline.parameters)
        for name in current.metrics.keys.sorted() {
            guard let after = current.metrics[name] else { continue }
            let setting = thresholds.resolve(metric: name, unit: after.unit, benchmark: current.id)
            guard setting.kind == .time else { continue }
            guard let oldRatios = Self.ratios(baseline, baselineReport[baselineReferenceID], name),
                  let newRatios = Self.ratios(current, currentReport[currentReferenceID], name)
            else {
                note("\(current.id): \(name) not time-gated: the line or its reference \(currentReferenceID) "
                     + "lacks \(name) samples on one side")
                continue
            }
            record(.time)
            guard let test = MannWhitneyU(oldRatios, newRatios) else { continue }
            let old = Statistics(oldRatios)
            let effect = old.median > 0 ? Statistics(newRatios).median / old.median - 1 : 0
            let spread = old.median > 0 ? (old.p75 - old.p25) / old.median : 0
            timeTests.append(TimeTest(
                benchmark: current.id, subject: "\(name) ratio to \(referenceName)", before: oldRatios, after: newRatios,
                pValue: test.pValue, alpha: setting.alpha, effect: effect,
                minimumEffect: Swift.max(setting.minimumEffect, spread), configuredMinimumEffect: setting.minimumEffect))
        }
    }

    /// Holm's step-down correction over every time test of the run: the test
    /// with the k-th smallest p-value (k from 0) of m is significant when its
    /// p is below alpha / (m − k) and every smaller p was significant too.
    /// With 80 lines tested, a lone regression needs p < alpha / 80; the
    /// chance that noise alone fails any line of the run stays under alpha.
    /// A regression is a significant test whose median ratio also grew by
    /// more than its minimum effect.
    ///
    /// A test whose sample counts cannot reach its corrected alpha at all is
    /// not counted as a time check (`untestedTimes`): it could pass only.
    /// When no test of the run can reach alpha / m, the first step of Holm's
    /// method, none can be significant, whatever the later steps allow.
    mutating func settleTimeTests() {
        let order = timeTests.indices.sorted { timeTests[$0].pValue < timeTests[$1].pValue }
        func floor(_ test: TimeTest) -> Double {
            MannWhitneyU.smallestPValue(n1: test.before.count, n2: test.after.count)
        }
        let anyCanLead = timeTests.contains { floor($0) < $0.alpha / Double(order.count) }
        var significant = Set<Int>()
        for (rank, index) in order.enumerated() {
            let test = timeTests[index]
            guard test.pValue < test.alpha / Double(order.count - rank) else { break }
            significant.insert(index)
        }
        for (index, test) in timeTests.enumerated() {
            let shift = String(format: "%.3fx -> %.3fx (%+.1f%%)", test.beforeMedian, test.afterMedian, test.effect * 100)
            let samples = String(format: "n = %d/%d", test.before.count, test.after.count)
            let corrected = test.alpha / Double(order.count - (order.firstIndex(of: index) ?? 0))
            let significance = String(format: "Mann–Whitney U p = %.3g, Holm-corrected alpha %.3g", test.pValue, corrected)
            let threshold = test.minimumEffect > test.configuredMinimumEffect
                ? String(format: "the minimum effect %g%% (the baseline's own spread; %g%% configured)",
                         test.minimumEffect * 100, test.configuredMinimumEffect * 100)
                : String(format: "the minimum effect %g%%", test.minimumEffect * 100)
            let testable = anyCanLead && floor(test) < corrected
            if !testable { untestedTimes += 1 }
            if test.effect > test.minimumEffect, significant.contains(index) {
                fail(GateFinding(
                    kind: .time, benchmark: test.benchmark, subject: test.subject,
                    before: String(format: "%.3fx (median of %d ratios)", test.beforeMedian, test.before.count),
                    after: String(format: "%.3fx (median of %d ratios)", test.afterMedian, test.after.count),
                    reason: "time ratio grew \(shift): significant (\(significance), \(samples)) and above \(threshold)"))
            } else if test.effect > test.minimumEffect {
                let why = !testable
                    ? String(format: "too few samples to ever reach the corrected alpha %.3g (smallest p %.3g): run more iterations",
                             corrected, floor(test))
                    : "not significant after Holm's correction over \(order.count) time checks"
                note("\(test.benchmark): \(test.subject) \(shift) but \(why) (\(significance), \(samples)) — not failed")
            } else {
                pass("[time] \(test.benchmark) — \(test.subject): \(shift), \(significance), \(samples)"
                     + (testable ? "" : " (too few samples to ever fail)"))
            }
        }
        if untestedTimes > 0 { checked[.time, default: 0] -= untestedTimes }
    }

    /// The line's samples over the reference's (paired wall times, else the
    /// reference line's median), or nil when either lacks them.
    static func ratios(_ line: BenchmarkResult, _ reference: BenchmarkResult?, _ metric: String) -> [Double]? {
        if metric == Metric.wallTime, let paired = line.pairedWallTimeRatios { return paired }
        guard let samples = line.metrics[metric]?.samples, !samples.isEmpty,
              let referenceSamples = reference?.metrics[metric]?.samples, !referenceSamples.isEmpty
        else { return nil }
        let referenceMedian = Statistics(referenceSamples).median
        guard referenceMedian > 0 else { return nil }
        return samples.map { $0 / referenceMedian }
    }
}
