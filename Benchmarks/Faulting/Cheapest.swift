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
        let cheapest = matrix.cheapestStrategies(in: column).sorted()
        guard let first = cheapest.first, let best = matrix.values[first][column] else { return "n/a" }
        let names = cheapest.map { matrix.rows[$0] }.joined(separator: "/")
        let raw = matrix.referenceRows.first.flatMap { matrix.values[$0][column] }
        return "\(names) (\(format(best, metric)))" + (raw.map { ", raw \(format($0, metric))" } ?? "")
    }

    private static func format(_ value: Double, _ metric: String) -> String {
        metric == Metric.wallTime ? String(format: "%.3f ms", value / 1e6) : String(format: "%.0f", value)
    }
}
