import Foundation

/// A report's lines measured with `--instructions`, grouped as strategies of
/// one profile (lines that differ only by their `strategy` parameter): each
/// strategy's instructions per item split by `InstructionPhase`, with its
/// total over the reference's, the C floor. Where a strategy's cost above the
/// floor goes: SQLite, decoding, objects, the registry, the row cache.
public enum InstructionSplit {
    public static func summary(of report: Report) -> [String] {
        var groups: [String: [BenchmarkResult]] = [:]
        var order: [String] = []
        for result in report.benchmarks where result.parameters[StrategyMatrix.strategyParameter] != nil
            && result.metrics[InstructionPhase.sqlite.metric] != nil {
            var others = result.parameters
            others[StrategyMatrix.strategyParameter] = nil
            let key = BenchmarkID.make(name: result.name, parameters: others)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(result)
        }
        return order.flatMap { key in table(key, groups[key] ?? [], all: report.benchmarksByID) }
    }

    private static func table(_ title: String, _ results: [BenchmarkResult], all: [String: BenchmarkResult]) -> [String] {
        let phases = InstructionPhase.allCases
        let names = results.map { $0.parameters[StrategyMatrix.strategyParameter]?.description ?? "?" }
        let width = max(8, names.map(\.count).max() ?? 0)
        func cell(_ text: String, _ width: Int = 9) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        var lines = ["instructions per item by phase, \(title):",
                     "  " + "strategy".padding(toLength: width, withPad: " ", startingAt: 0) + cell("total") + cell("vs raw")
                        + phases.map { cell($0.rawValue) }.joined()]
        for (result, name) in zip(results, names) {
            let total = result.median(Metric.instructionsPerItem) ?? 0
            let reference = result.reference.flatMap { all[BenchmarkID.reference($0, parameters: result.parameters)] }
            let floor = reference?.median(Metric.instructionsPerItem)
            let ratio = floor.map { $0 > 0 ? String(format: "%.2fx", total / $0) : "—" } ?? "floor"
            lines.append("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + cell(String(format: "%.0f", total))
                         + cell(ratio) + phases.map { cell(String(format: "%.0f", result.median($0.metric) ?? 0)) }.joined())
        }
        return lines
    }
}
