import Foundation

extension RegressionGate {
    /// Gates every time metric of a line that has a reference: each sample is
    /// divided by the reference's wall time taken beside it (a paired run) or,
    /// for other metrics and older reports, by the median of the reference's
    /// samples from the same report; the baseline's ratios are tested against
    /// the current ones.
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
            let oldMedian = Statistics(oldRatios).median
            let newMedian = Statistics(newRatios).median
            let effect = oldMedian > 0 ? newMedian / oldMedian - 1 : 0
            guard let test = MannWhitneyU(oldRatios, newRatios) else { continue }
            let shift = String(format: "%.3fx -> %.3fx (%+.1f%%)", oldMedian, newMedian, effect * 100)
            let samples = String(format: "n = %d/%d", oldRatios.count, newRatios.count)
            let significance = String(format: "Mann–Whitney U p = %.3g", test.pValue)
            let subject = "\(name) ratio to \(referenceName)"
            if effect > setting.minimumEffect, test.pValue < setting.alpha {
                fail(GateFinding(
                    kind: .time, benchmark: current.id, subject: subject,
                    before: String(format: "%.3fx (median of %d ratios)", oldMedian, oldRatios.count),
                    after: String(format: "%.3fx (median of %d ratios)", newMedian, newRatios.count),
                    reason: String(format: "time ratio grew %@: significant (%@ < alpha %g, %@) and above the minimum effect %g%%",
                                   shift, significance, setting.alpha, samples, setting.minimumEffect * 100)))
            } else if effect > setting.minimumEffect {
                let floor = MannWhitneyU.smallestPValue(n1: oldRatios.count, n2: newRatios.count)
                let why = floor >= setting.alpha
                    ? String(format: "too few samples to ever reach alpha %g (smallest p %.3g): run more iterations", setting.alpha, floor)
                    : String(format: "not significant at alpha %g", setting.alpha)
                note("\(current.id): \(subject) \(shift) but \(why) (\(significance), \(samples)) — not failed")
            } else {
                pass("[time] \(current.id) — \(subject): \(shift), \(significance), \(samples)")
            }
        }
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
