import Foundation

/// `report.md`: one or several suites' reports as Markdown fit for a
/// pull-request comment — per suite a heading, the run in one line, the
/// debug-build warning if any, and a table of every benchmark.
public enum MarkdownReport {
    public static func render(_ reports: [Report]) -> String {
        var lines = ["## Faultline benchmarks", ""]
        for report in reports {
            lines.append("### \(escape(report.suite))")
            lines.append("")
            lines.append(runLine(report.metadata))
            lines.append("")
            if report.metadata.isDebugBuild {
                lines.append("> **\(escape(ResultTable.debugWarning))**")
                lines.append("")
            }
            lines.append("| benchmark | parameters | median | reference beside it | throughput | vs reference | " + ReportText.perItemHeadings.joined(separator: " | ") + " |")
            lines.append("|---|---|--:|--:|--:|--:|" + String(repeating: "--:|", count: ReportText.perItemHeadings.count))
            for result in report.benchmarks {
                let cells = [
                    "`\(result.name.replacingOccurrences(of: "`", with: "'"))`",
                    escape(ReportText.parameters(result)),
                    ReportText.medianTime(result),
                    ReportText.pairedReference(result),
                    ReportText.medianThroughput(result),
                    escape(ReportText.ratio(result)),
                ] + ReportText.perItemCells(result)
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            lines.append("")
            lines += growthTable(report)
        }
        return lines.joined(separator: "\n")
    }

    /// Per line measured at several sizes, each counter's growth exponent
    /// against its items (1 is linear); nothing when no line has two sizes.
    static func growthTable(_ report: Report) -> [String] {
        let growths = CostGrowth.all(in: report)
        guard !growths.isEmpty else { return [] }
        let metrics = CostGrowth.metrics.filter { metric in growths.contains { $0.metric == metric } }
        var lines = ["Cost growth: the exponent of each counter against the line's items (1 is linear).", "",
                     "| line | items | " + metrics.map { "`\($0)`" }.joined(separator: " | ") + " |",
                     "|---|---|" + String(repeating: "--:|", count: metrics.count)]
        var seen = Set<String>()
        for growth in growths where seen.insert(growth.line).inserted {
            let cells = metrics.map { metric in growths.first { $0.line == growth.line && $0.metric == metric }?.exponentText ?? "–" }
            lines.append("| `\(growth.line)` | \(growth.sizes.map(String.init).joined(separator: ", ")) | "
                         + cells.joined(separator: " | ") + " |")
        }
        return lines + [""]
    }

    /// `release · abc1234 (dirty) · 2026-… · AMD EPYC, 2 cores · Debian … · Swift 6.3 · SQLite 3.40.1`.
    static func runLine(_ metadata: RunMetadata) -> String {
        "<sub>" + escape(ReportText.runSummary(metadata)) + "</sub>"
    }

    /// Escapes the characters that would break a table cell or turn text into markup.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "|": escaped += "\\|"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "&": escaped += "&amp;"
            case "*", "_", "`", "[", "]", "\\": escaped += "\\\(character)"
            case "\n": escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

/// Wording shared by the Markdown and HTML reports.
enum ReportText {
    static func parameters(_ result: BenchmarkResult) -> String {
        result.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    /// A cell whose value the report lacks (a line without wall times, say):
    /// a dash, never a zero, which would read as measured.
    static let missing = "–"

    /// The median wall time, or `missing`.
    static func medianTime(_ result: BenchmarkResult) -> String {
        result.median(Metric.wallTime).map(ResultTable.formatDuration) ?? missing
    }

    /// The median throughput, or `missing`.
    static func medianThroughput(_ result: BenchmarkResult) -> String {
        result.median(Metric.throughput).map(ResultTable.formatRate) ?? missing
    }

    /// The per-item columns every table shows: allocations, allocated bytes,
    /// minor page faults, fsyncs and bytes written to SQLite's files.
    static let perItemHeadings = ["mallocs/item", "bytes/item", "page faults/item", "fsyncs/item", "written/item"]

    static func perItemCells(_ result: BenchmarkResult) -> [String] {
        [(Metric.mallocsPerItem, "%.2f"), (Metric.bytesPerItem, "%.0f"), (Metric.pageFaultsPerItem, "%.3f"),
         (Metric.fileSyncsPerItem, "%.4f"), (Metric.fileBytesWrittenPerItem, "%.0f")].map { metric, format in
            result.median(metric).map { String(format: format, $0) } ?? missing
        }
    }

    /// `2.49x raw.insert`, `reference`, or `n/a` when the reference did not run.
    static func ratio(_ result: BenchmarkResult) -> String {
        if let comparison = result.comparison {
            return String(format: "%.2fx ", comparison.wallTimeRatio) + referenceLabel(result, comparison)
        }
        return result.reference == nil ? "reference" : "n/a"
    }

    /// The reference a line's ratio divides by, in as few words as tell it
    /// apart: its name unless the line shares it, then the parameters it
    /// overrides. `raw.insert.txn` for an Inserts line; `strategy=raw` for a
    /// Faulting strategy, whose reference is the `profile` line of the same
    /// graph with `strategy=raw` (the id's first word alone, the name both
    /// share, labelled every one of them `profile`).
    static func referenceLabel(_ result: BenchmarkResult, _ comparison: ReferenceComparison) -> String {
        // The reference as declared: a name, then any overridden parameters.
        let declared = result.reference ?? comparison.reference
        let parts = declared.split(separator: " ", maxSplits: 1).map(String.init)
        guard let name = parts.first else { return comparison.reference }
        guard parts.count > 1 else { return name }
        return name == result.name ? parts[1] : declared
    }

    /// The median time of the reference runs taken beside this line's
    /// iterations, which its ratio divides by (the reference's own line ran
    /// earlier and may read differently); `missing` for a line without paired runs.
    static func pairedReference(_ result: BenchmarkResult) -> String {
        guard let median = result.median(Metric.referenceWallTime) else { return missing }
        return ResultTable.formatDuration(median)
    }

    static func runSummary(_ metadata: RunMetadata) -> String {
        var commit = metadata.gitCommit.map { String($0.prefix(10)) } ?? "no commit"
        if metadata.gitDirty == true { commit += " (dirty)" }
        return [
            metadata.buildConfiguration, commit, metadata.timestamp,
            "\(metadata.cpuModel), \(metadata.coreCount) cores", metadata.operatingSystem,
            "Swift \(metadata.swiftVersion)", "SQLite \(metadata.sqliteVersion)",
        ].joined(separator: " · ") + (metadata.allocatorSettings.map { " · jemalloc \($0)" } ?? "")
            + (metadata.malloc == "system" ? " · the system's malloc (no allocation counts)" : "")
    }
}
