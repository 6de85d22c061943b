import Foundation

extension RegressionGate {
    /// Checks each line measured at several sizes against the largest cost
    /// growth exponent its thresholds allow (`maximumGrowth`), on every
    /// counter it is fitted on; like a budget, it needs no baseline.
    mutating func checkGrowth(_ report: Report, _ thresholds: GateThresholds) {
        guard (thresholds.benchmarks ?? []).contains(where: { $0.maximumGrowth != nil }) else { return }
        let growths = CostGrowth.all(in: report)
        for result in report.benchmarks where thresholds.maximumGrowth(for: result.id) != nil {
            guard !growths.contains(where: { $0.line == CostGrowth.lineName(result) }) else { continue }
            note("\(result.id): a cost growth bound applies but the line ran at one size only (not checked)")
        }
        var checkedLines = Set<String>()
        for growth in growths {
            let results = report.benchmarks.filter { CostGrowth.lineName($0) == growth.line }
            let bounds = results.compactMap { thresholds.maximumGrowth(for: $0.id) }
            guard let bound = bounds.min() else { continue }
            checkedLines.insert(growth.line)
            record(.growth)
            let sizes = growth.sizes.map(String.init).joined(separator: ", ")
            let measured = "exponent \(growth.exponentText) over \(sizes) items"
            if growth.exponent > bound {
                fail(GateFinding(
                    kind: .growth, benchmark: growth.line, subject: "\(growth.metric) growth",
                    before: String(format: "bound ≤ %.2f", bound), after: measured,
                    reason: String(format: "%@ grows as items^%.2f, above its bound of %.2f", growth.metric, growth.exponent, bound)))
            } else {
                pass("[growth] \(growth.line) — \(growth.metric): \(measured), within ≤ \(String(format: "%.2f", bound))")
            }
        }
    }
}
