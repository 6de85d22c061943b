import FaultlineBench
import Foundation

/// A benchmark report or a gate's thresholds file, as JSON: read, and when it
/// reads, gated against itself and rendered. A typed refusal is fine.
public enum ReportInput: FuzzTarget {
    public static let name = "report"

    public static func run(_ input: Data) -> String? {
        let thresholds = (try? GateThresholds.parse(input, path: "fuzz.json")) ?? GateThresholds()
        guard let report = try? ReportFile.parse(input, path: "fuzz.json") else { return nil }
        let gate = RegressionGate(baseline: report, current: report, thresholds: thresholds)
        // A report gated against itself has nothing to report.
        if !gate.passed { return "a report gated against itself fails: \(gate.failing)" }
        _ = MarkdownReport.render([report])
        _ = HTMLReport.render([report])
        return nil
    }
}
