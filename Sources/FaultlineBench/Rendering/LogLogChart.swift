import Foundation

/// One line of a chart: a name and its points, x ascending.
struct ChartSeries {
    var name: String
    var points: [(x: Double, y: Double)]
}

/// A line chart on log-log axes (e.g. throughput against rows, one line per
/// method), with decade ticks (plus 2 and 5 when the data spans little),
/// labelled axes, grid lines and a legend on the right.
struct LogLogChart {
    var title: String
    var xLabel: String
    var yLabel: String
    var series: [ChartSeries]

    private let plotLeft = 90.0, plotTop = 40.0, plotWidth = 560.0, plotHeight = 320.0, legendWidth = 300.0

    /// The chart as an `<svg>` element, or nil when no point is positive.
    func render() -> String? {
        let points = series.flatMap(\.points).filter { $0.x > 0 && $0.y > 0 }
        guard let xRange = Self.logRange(points.map(\.x)), let yRange = Self.logRange(points.map(\.y)) else { return nil }
        let height = max(plotTop + plotHeight + 70, plotTop + 20 + 18 * Double(series.count))
        var svg = SVGWriter(width: plotLeft + plotWidth + legendWidth, height: height)
        let x = { (value: Double) in self.plotLeft + (log10(value) - xRange.lowerBound) / (xRange.upperBound - xRange.lowerBound) * self.plotWidth }
        let y = { (value: Double) in self.plotTop + self.plotHeight - (log10(value) - yRange.lowerBound) / (yRange.upperBound - yRange.lowerBound) * self.plotHeight }
        svg.text(title, x: plotLeft, y: 22, size: 15, bold: true)
        svg.rect(x: plotLeft, y: plotTop, width: plotWidth, height: plotHeight, fill: "#fbfbfb", stroke: "#999")
        for tick in Self.ticks(xRange) {
            svg.line(x(tick), plotTop, x(tick), plotTop + plotHeight, stroke: "#e2e2e2")
            svg.line(x(tick), plotTop + plotHeight, x(tick), plotTop + plotHeight + 5, stroke: "#666")
            svg.text(Self.short(tick), x: x(tick), y: plotTop + plotHeight + 19, anchor: .middle, size: 11)
        }
        for tick in Self.ticks(yRange) {
            svg.line(plotLeft, y(tick), plotLeft + plotWidth, y(tick), stroke: "#e2e2e2")
            svg.line(plotLeft - 5, y(tick), plotLeft, y(tick), stroke: "#666")
            svg.text(Self.short(tick), x: plotLeft - 8, y: y(tick) + 4, anchor: .end, size: 11)
        }
        svg.text(xLabel + " (log scale)", x: plotLeft + plotWidth / 2, y: plotTop + plotHeight + 45, anchor: .middle, size: 13)
        svg.text(yLabel + " (log scale)", x: 20, y: plotTop + plotHeight / 2, anchor: .middle, size: 13, rotation: -90)
        for (index, line) in series.enumerated() {
            let style = ChartPalette.style(index)
            let visible = line.points.filter { $0.x > 0 && $0.y > 0 }
            svg.polyline(visible.map { (x: x($0.x), y: y($0.y)) }, stroke: style.colour, dash: style.dash)
            for point in visible {
                svg.circle(cx: x(point.x), cy: y(point.y), radius: 3.5, fill: style.colour,
                           tooltip: "\(line.name): \(xLabel) \(Self.short(point.x)), \(yLabel) \(Self.short(point.y))")
            }
            let legendY = plotTop + 10 + 18 * Double(index)
            let legendX = plotLeft + plotWidth + 20
            svg.line(legendX, legendY, legendX + 24, legendY, stroke: style.colour, width: 2.5, dash: style.dash)
            svg.text(Self.truncated(line.name), x: legendX + 30, y: legendY + 4, size: 12)
        }
        return svg.render(label: "\(title): \(yLabel) against \(xLabel), log-log")
    }

    /// log10 bounds padded to whole decades (or half a decade around a single value).
    static func logRange(_ values: [Double]) -> ClosedRange<Double>? {
        let logs = values.filter { $0 > 0 && $0.isFinite }.map(log10)
        guard let low = logs.min(), let high = logs.max() else { return nil }
        let lower = low.rounded(.down)
        var upper = high.rounded(.up)
        if upper <= lower { upper = lower + 1 }
        return lower...upper
    }

    /// Decades, plus 2× and 5× when the range spans at most two decades.
    static func ticks(_ range: ClosedRange<Double>) -> [Double] {
        let decades = Int(range.lowerBound)...Int(range.upperBound)
        let multipliers: [Double] = range.upperBound - range.lowerBound <= 2 ? [1, 2, 5] : [1]
        return decades.flatMap { decade in multipliers.map { $0 * pow(10, Double(decade)) } }
            .filter { log10($0) <= range.upperBound + 1e-9 }
    }

    /// 1, 20, 500, 1K, 10K, 2M, 1G.
    static func short(_ value: Double) -> String {
        let units: [(Double, String)] = [(1e9, "G"), (1e6, "M"), (1e3, "K")]
        for (scale, suffix) in units where value >= scale {
            return trimmed(value / scale) + suffix
        }
        return trimmed(value)
    }

    private static func trimmed(_ value: Double) -> String {
        value >= 100 || value == value.rounded() ? String(format: "%.0f", value) : String(format: "%.3g", value)
    }

    /// Cut in the middle: a label's head names the benchmark and its tail the
    /// parameter that tells lines apart (ids sort `strategy=` last).
    static func truncated(_ text: String, to length: Int = 40) -> String {
        guard text.count > length else { return text }
        let tail = (length - 1) / 2
        return String(text.prefix(length - 1 - tail)) + "…" + String(text.suffix(tail))
    }
}
