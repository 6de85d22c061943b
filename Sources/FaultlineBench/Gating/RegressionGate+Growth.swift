import Foundation

extension RegressionGate {
    /// Checks each line measured at several sizes against the largest cost
    /// growth exponent its thresholds allow (`maximumGrowth`), on every
    /// counter it is fitted on; like a budget, it needs no baseline.
    mutating func checkGrowth(_ report: Report, _ thresholds: GateThresholds) {
        guard (thresholds.benchmarks ?? []).contains(where: { $0.maximumGrowth != nil }) else { return }
        let growths = CostGrowth.all(in: report)
        let lines = CostGrowth.lines(in: report)
        for (line, results) in lines where !growths.contains(where: { $0.line == line }) {
            let items = Set(results.map(\.items))
            for result in results where thresholds.maximumGrowth(for: result.id) != nil {
                note(results.count > 1 && items.count == 1
                     ? "\(result.id): a cost growth bound applies but its line keeps \(result.items) items at every size (not checked)"
                     : "\(result.id): a cost growth bound applies but the line ran at one size only (not checked)")
            }
        }
        var checkedLines = Set<String>()
        for growth in growths {
            let results = lines.first { $0.line == growth.line }?.results ?? []
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
