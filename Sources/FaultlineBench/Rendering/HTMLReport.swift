import Foundation

// report.html — design note. One self-contained page for one or several
// suites' reports: no network, no external fonts, scripts or images, every
// chart an inline <svg> drawn by SVGWriter, every text escaped (Markup.escape).
// Per suite: the run line, the debug-build warning, the table, throughput
// against the numeric parameter on log-log axes (one line per method), each
// line's ratio to its reference as bars with a 1.0x marker, and — only when
// benchmarks differ by a `strategy` parameter — the strategy matrix as a heat map.

/// Renders reports as a self-contained HTML page with inline SVG charts.
public enum HTMLReport {
    /// - Parameter histories: per suite, its committed baselines along git log
    ///   (`report --history DIR`), charted at the end of its section; a suite
    ///   named with nil has none to chart, and its section says so.
    public static func render(_ reports: [Report], histories: [String: BaselineHistory?] = [:]) -> String {
        var body: [String] = ["<h1>Faultline benchmarks</h1>"]
        if reports.count > 1 {
            let links = reports.map { "<a href=\"#\(anchor($0.suite))\">\(Markup.escape($0.suite))</a>" }
            body.append("<nav>" + links.joined(separator: " · ") + "</nav>")
        }
        for report in reports { body.append(section(report, history: histories[report.suite])) }
        return document(title: "Faultline benchmarks", style: """
            body { font-family: sans-serif; margin: 24px; color: #222; background: #fff; }
            h2 { border-bottom: 2px solid #ddd; padding-bottom: 4px; margin-top: 40px; }
            .run { color: #555; font-size: 13px; }
            .warning { background: #fdecea; border: 1px solid #e0877e; padding: 8px 12px; font-weight: bold; }
            table { border-collapse: collapse; font-size: 13px; margin: 12px 0; }
            th, td { border: 1px solid #ddd; padding: 4px 8px; }
            th { background: #f3f3f3; text-align: left; }
            td.number { text-align: right; font-variant-numeric: tabular-nums; }
            figure { margin: 16px 0; }
            .note { color: #777; font-style: italic; font-size: 13px; }
            """, body: body)
    }

    /// A self-contained page: no scripts, no links, the style inline.
    static func document(title: String, style: String, body: [String]) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>\(Markup.escape(title))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        \(body.joined(separator: "\n"))
        </body>
        </html>

        """
    }

    /// A fragment identifier for a suite's section: letters, digits, `-` and `_`.
    static func anchor(_ suite: String) -> String {
        "suite-" + String(suite.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
    }

    /// Each line's name with only the parameters whose values differ between
    /// the lines, so a long id keeps what tells it apart (a profile's
    /// `strategy`) instead of losing it to truncation; and the parameters every
    /// line shares, said once.
    static func distinguishingLabels(_ results: [BenchmarkResult]) -> (labels: [String], shared: String) {
        let keys = Set(results.flatMap { $0.parameters.keys })
        let varying = keys.filter { key in Set(results.map { $0.parameters[key]?.description ?? "" }).count > 1 }
        let labels = results.map { result in
            BenchmarkID.make(name: result.name, parameters: result.parameters.filter { varying.contains($0.key) })
        }
        let shared = results.first.map { first in
            first.parameters.filter { !varying.contains($0.key) }.sorted { $0.key < $1.key }
                .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        } ?? ""
        return (labels, shared)
    }

    static func section(_ report: Report, history: BaselineHistory?? = nil) -> String {
        var parts = ["<section id=\"\(anchor(report.suite))\">", "<h2>\(Markup.escape(report.suite))</h2>",
                     "<p class=\"run\">\(Markup.escape(ReportText.runSummary(report.metadata)))</p>"]
        if report.metadata.isDebugBuild {
            parts.append("<p class=\"warning\">\(Markup.escape(ResultTable.debugWarning))</p>")
        }
        parts.append(table(report))
        if let chart = throughputChart(report) {
            parts.append("<figure>\(chart)</figure>")
        } else {
            parts.append("<p class=\"note\">No numeric parameter takes two or more values: no throughput chart.</p>")
        }
        let compared = report.benchmarks.filter { $0.comparison != nil }
        let (labels, shared) = distinguishingLabels(compared)
        let bars = zip(compared, labels).compactMap { result, label in
            result.comparison.map { (label: label, ratio: $0.wallTimeRatio) }
        }
        let title = "\(report.suite): ratio to reference" + (shared.isEmpty ? "" : " (all \(shared))")
        if let chart = RatioBarChart(title: title, bars: bars).render() {
            parts.append("<figure>\(chart)</figure>")
        }
        for matrix in StrategyMatrix.matrices(from: report) {
            guard let chart = HeatMap(matrix: matrix).render() else { continue }
            parts.append("<figure>\(chart)</figure>")
            if let column = matrix.columns.firstIndex(where: { $0.name == Metric.wallTime }) {
                let names = matrix.cheapestStrategies(in: column).sorted().map { matrix.rows[$0] }
                let floor = matrix.referenceRows.sorted().map { matrix.rows[$0] }
                let reference = floor.isEmpty ? "" : " (the reference, \(Markup.escape(floor.joined(separator: ", "))), is the floor)"
                parts.append("<p>Cheapest strategy by wall time: <strong>\(Markup.escape(names.joined(separator: ", ")))</strong>\(reference)</p>")
            }
        }
        switch history {
        case .some(.some(let history)):
            parts.append("<details><summary>Committed baselines over \(history.entries.count) commit(s)</summary>")
            parts += HistoryPage.lines(history, heading: "h4")
            parts.append("</details>")
        case .some(.none):
            parts.append("<p class=\"note\">No committed baselines of \(Markup.escape(report.suite)) to chart.</p>")
        case .none:
            break
        }
        parts.append("</section>")
        return parts.joined(separator: "\n")
    }

    static func table(_ report: Report) -> String {
        var rows = ["<table>", "<tr><th>benchmark</th><th>parameters</th><th>median</th><th>reference beside it</th><th>throughput</th>"
                    + "<th>vs reference</th>" + ReportText.perItemHeadings.map { "<th>\($0)</th>" }.joined() + "</tr>"]
        for result in report.benchmarks {
            let cells = [
                ("", result.name), ("", ReportText.parameters(result)),
                ("number", ReportText.medianTime(result)),
                ("number", ReportText.pairedReference(result)),
                ("number", ReportText.medianThroughput(result)),
                ("number", ReportText.ratio(result)),
            ] + ReportText.perItemCells(result).map { ("number", $0) }
            rows.append("<tr>" + cells.map { style, text in
                (style.isEmpty ? "<td>" : "<td class=\"\(style)\">") + Markup.escape(text) + "</td>"
            }.joined() + "</tr>")
        }
        rows.append("</table>")
        return rows.joined(separator: "\n")
    }

    /// Throughput against the integer parameter with the most distinct values
    /// (`rows` on a tie); one line per benchmark name and other parameters.
    static func throughputChart(_ report: Report) -> String? {
        var distinct: [String: Set<Int>] = [:]
        for result in report.benchmarks {
            for case let (name, .int(value)) in result.parameters { distinct[name, default: []].insert(value) }
        }
        let candidates = distinct.filter { $0.value.count >= 2 }
        guard let axis = candidates.max(by: { ($0.value.count, $0.key == "rows" ? 1 : 0, $1.key) < ($1.value.count, $1.key == "rows" ? 1 : 0, $0.key) })?.key
        else { return nil }
        var lines: [String: [(x: Double, y: Double)]] = [:]
        var order: [String] = []
        for result in report.benchmarks {
            guard case .int(let x)? = result.parameters[axis], let y = result.median(Metric.throughput) else { continue }
            var others = result.parameters
            others[axis] = nil
            let key = BenchmarkID.make(name: result.name, parameters: others)
            if lines[key] == nil { order.append(key) }
            lines[key, default: []].append((x: Double(x), y: y))
        }
        let series = order.map { ChartSeries(name: $0, points: (lines[$0] ?? []).sorted { $0.x < $1.x }) }
        return LogLogChart(title: "\(report.suite): throughput against \(axis)", xLabel: axis,
                           yLabel: "throughput (items/s)", series: series).render()
    }
}
