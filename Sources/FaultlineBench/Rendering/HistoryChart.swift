import Foundation

/// Figures over commits: x is the commit (oldest left, its short hash under
/// it), y linear from zero; a line breaks where a commit lacks the figure.
struct HistoryChart {
    var title: String
    var yLabel: String
    var commits: [String]
    var series: [(name: String, values: [Double?])]

    private let plotLeft = 80.0, plotTop = 36.0, plotWidth = 560.0, plotHeight = 220.0, legendWidth = 320.0

    /// The chart as an `<svg>` element, or nil when no series has a value.
    func render() -> String? {
        let all = series.flatMap { $0.values.compactMap { $0 } }.filter(\.isFinite)
        guard let top = all.max(), !commits.isEmpty else { return nil }
        let yMax = top > 0 ? Self.niceCeiling(top) : 1
        let height = max(plotTop + plotHeight + 60, plotTop + 20 + 18 * Double(series.count))
        var svg = SVGWriter(width: plotLeft + plotWidth + legendWidth, height: height)
        let step = commits.count > 1 ? plotWidth / Double(commits.count - 1) : 0
        let x = { (index: Int) in self.plotLeft + (self.commits.count > 1 ? Double(index) * step : self.plotWidth / 2) }
        let y = { (value: Double) in self.plotTop + self.plotHeight - max(0, value) / yMax * self.plotHeight }
        svg.text(title, x: plotLeft, y: 20, size: 14, bold: true)
        svg.rect(x: plotLeft, y: plotTop, width: plotWidth, height: plotHeight, fill: "#fbfbfb", stroke: "#999")
        for tick in 0...4 {
            let value = yMax * Double(tick) / 4
            svg.line(plotLeft, y(value), plotLeft + plotWidth, y(value), stroke: "#e2e2e2")
            svg.text(LogLogChart.short(value), x: plotLeft - 8, y: y(value) + 4, anchor: .end, size: 11)
        }
        // At most about twelve commit labels, evenly spaced back from the
        // newest, so they never overlap.
        let every = max(1, Int((Double(commits.count) / 12).rounded(.up)))
        for index in stride(from: commits.count - 1, through: 0, by: -every) {
            svg.text(String(commits[index].prefix(7)), x: x(index), y: plotTop + plotHeight + 16, anchor: .middle, size: 10)
        }
        svg.text(yLabel, x: 20, y: plotTop + plotHeight / 2, anchor: .middle, size: 12, rotation: -90)
        for (number, line) in series.enumerated() {
            let (colour, dash) = ChartPalette.style(number)
            var segment: [(x: Double, y: Double)] = []
            func flush() {
                if segment.count > 1 { svg.polyline(segment, stroke: colour, dash: dash) }
                segment.removeAll()
            }
            for (index, value) in line.values.enumerated() {
                guard let value, value.isFinite else { flush(); continue }
                segment.append((x(index), y(value)))
                svg.circle(cx: x(index), cy: y(value), radius: 3, fill: colour,
                           tooltip: "\(line.name) at \(commits[index]): \(BaselineHistory.number(value))")
            }
            flush()
            let legendY = plotTop + 14 + 18 * Double(number)
            svg.line(plotLeft + plotWidth + 16, legendY - 4, plotLeft + plotWidth + 40, legendY - 4, stroke: colour, dash: dash)
            svg.text(line.name, x: plotLeft + plotWidth + 46, y: legendY, size: 12)
        }
        return svg.render(label: title)
    }

    /// 1, 2 or 5 times a power of ten at or above `value`.
    static func niceCeiling(_ value: Double) -> Double {
        let power = pow(10, log10(value).rounded(.down))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= value } ?? value
    }
}

/// `history.html`: per line of a suite, its ratio to its reference and its
/// counters (relative to their first value) over the commits that changed
/// the baseline, and the commits where a counter moved.
enum HistoryPage {
    static func render(_ history: BaselineHistory) -> String {
        let commits = history.entries.map(\.commit)
        let body = ["<h1>\(Markup.escape(history.suite)): baselines over \(commits.count) commit(s)</h1>",
                    "<p class=\"run\">\(Markup.escape(history.entries.first?.date ?? "")) – "
                    + "\(Markup.escape(history.entries.last?.date ?? ""))</p>"] + lines(history, heading: "h2")
        return HTMLReport.document(title: "\(history.suite) baselines over time", style: """
            body { font-family: sans-serif; margin: 24px; color: #222; background: #fff; }
            h2 { border-bottom: 2px solid #ddd; padding-bottom: 4px; margin-top: 32px; font-size: 17px; }
            .run { color: #555; font-size: 13px; }
            figure { margin: 12px 0; }
            li { font-size: 13px; }
            """, body: body)
    }

    /// Per line, under a heading of level `heading`: its ratio chart, its
    /// counters chart and the commits where a counter moved. The main report
    /// (`report --history DIR`) puts these inside each suite's section.
    static func lines(_ history: BaselineHistory, heading: String) -> [String] {
        let commits = history.entries.map(\.commit)
        var body: [String] = []
        for line in history.lineIDs {
            body.append("<\(heading)>\(Markup.escape(line))</\(heading)>")
            let ratio = HistoryChart(title: "ratio to its reference", yLabel: "ratio", commits: commits,
                                     series: [(name: "wall time ratio", values: history.values(of: line, "ratio"))])
            if let svg = ratio.render() { body.append("<figure>\(svg)</figure>") }
            let relative = BaselineHistory.counters.compactMap { counter -> (name: String, values: [Double?])? in
                let values = history.values(of: line, counter)
                guard let first = values.compactMap({ $0 }).first(where: { $0 > 0 }) else { return nil }
                return (counter, values.map { $0.map { $0 / first } })
            }
            let counters = HistoryChart(title: "counters, relative to their first value", yLabel: "× first", commits: commits,
                                        series: relative)
            if let svg = counters.render() { body.append("<figure>\(svg)</figure>") }
            let steps = history.steps(of: line)
            if !steps.isEmpty { body.append("<ul>" + steps.map { "<li>\(Markup.escape($0))</li>" }.joined() + "</ul>") }
        }
        return body
    }
}
