import Foundation

/// The readable table a suite prints: one line per benchmark with its median
/// time, throughput, ratio to its reference, and the per-item figures
/// (`ReportText.perItemCells`).
enum ResultTable {
    static func render(_ report: Report) -> String {
        var rows: [[String]] = [["benchmark", "parameters", "median", "throughput", "vs reference"] + ReportText.perItemHeadings]
        for result in report.benchmarks {
            let ratio = result.comparison.map { String(format: "%.2fx (%@)", $0.wallTimeRatio, ReportText.referenceLabel(result, $0)) }
                ?? (result.reference == nil ? "(reference)" : "n/a")
            rows.append([
                result.name,
                result.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "),
                ReportText.medianTime(result),
                ReportText.medianThroughput(result),
                ratio,
            ] + ReportText.perItemCells(result))
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < 2 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        lines.insert(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "), at: 1)
        if report.metadata.isDebugBuild {
            lines.insert(debugWarning, at: 0)
            lines.append(debugWarning)
        }
        return lines.joined(separator: "\n")
    }

    static let debugWarning =
        "WARNING: DEBUG BUILD — these figures are not representative; run with `swift run -c release`."

    static func formatDuration(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: return String(format: "%.0f ns", nanoseconds)
        case ..<1_000_000: return String(format: "%.2f µs", nanoseconds / 1e3)
        case ..<1_000_000_000: return String(format: "%.2f ms", nanoseconds / 1e6)
        default: return String(format: "%.3f s", nanoseconds / 1e9)
        }
    }

    static func formatRate(_ perSecond: Double) -> String {
        switch perSecond {
        case ..<1_000: return String(format: "%.0f /s", perSecond)
        case ..<1_000_000: return String(format: "%.1f K/s", perSecond / 1e3)
        default: return String(format: "%.2f M/s", perSecond / 1e6)
        }
    }
}
