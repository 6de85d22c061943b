import FaultlineBench
import Foundation

/// After a run: for each profile's strategy matrix, the cheapest Faultline
/// strategy by wall time and by statements (the raw reference is named as
/// well, as the floor). Ties list every strategy.
enum Cheapest {
    static func summary(of report: Report) -> [String] {
        StrategyMatrix.matrices(from: report).map { matrix in
            let byTime = cheapest(matrix, metric: Metric.wallTime)
            let byStatements = cheapest(matrix, metric: "statementsExecuted")
            return "cheapest for \(matrix.title): by wall time \(byTime), by statements \(byStatements)"
        }
    }

    private static func cheapest(_ matrix: StrategyMatrix, metric: String) -> String {
        guard let column = matrix.columns.firstIndex(where: { $0.name == metric }) else { return "n/a" }
        let candidates = matrix.rows.indices.filter { matrix.rows[$0] != "raw" }
        let values = candidates.compactMap { row in matrix.values[row][column].map { (row, $0) } }
        guard let best = values.map(\.1).min() else { return "n/a" }
        let names = values.filter { $0.1 == best }.map { matrix.rows[$0.0] }.joined(separator: "/")
        let raw = matrix.rows.firstIndex(of: "raw").flatMap { matrix.values[$0][column] }
        return "\(names) (\(format(best, metric)))" + (raw.map { ", raw \(format($0, metric))" } ?? "")
    }

    private static func format(_ value: Double, _ metric: String) -> String {
        metric == Metric.wallTime ? String(format: "%.3f ms", value / 1e6) : String(format: "%.0f", value)
    }
}
