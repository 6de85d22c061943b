import Foundation

/// Each line's wall-time ratio to its reference as a horizontal bar, with a
/// dashed marker at 1.0x (the reference itself).
/// Bars at or under 1.0x (as fast as the reference or faster) are green.
struct RatioBarChart {
    var title: String
    var bars: [(label: String, ratio: Double)]

    private let labelWidth = 420.0, plotWidth = 480.0, rowHeight = 22.0, top = 40.0

    func render() -> String? {
        let finite = bars.filter { $0.ratio.isFinite && $0.ratio > 0 }
        guard let largest = finite.map(\.ratio).max(), let smallest = finite.map(\.ratio).min() else { return nil }
        let axis = Axis(smallest: smallest, largest: largest)
        let plotLeft = labelWidth + 10
        let plotHeight = rowHeight * Double(finite.count)
        var svg = SVGWriter(width: plotLeft + plotWidth + 90, height: top + plotHeight + 50)
        let x = { (ratio: Double) in plotLeft + axis.position(ratio) * self.plotWidth }
        svg.text(title, x: 10, y: 22, size: 15, bold: true)
        for tick in axis.ticks {
            svg.line(x(tick), top, x(tick), top + plotHeight, stroke: "#e2e2e2")
            svg.text(String(format: "%gx", tick), x: x(tick), y: top + plotHeight + 16, anchor: .middle, size: 11)
        }
        for (row, bar) in finite.enumerated() {
            let y = top + rowHeight * Double(row)
            let colour = bar.ratio <= 1 ? "#009E73" : "#0072B2"
            svg.text(LogLogChart.truncated(bar.label, to: 64), x: labelWidth, y: y + 15, anchor: .end, size: 12)
            svg.rect(x: plotLeft, y: y + 4, width: x(bar.ratio) - plotLeft, height: rowHeight - 8, fill: colour,
                     tooltip: String(format: "%@: %.3fx", bar.label, bar.ratio))
            svg.text(String(format: "%.2fx", bar.ratio), x: x(bar.ratio) + 5, y: y + 15, size: 11)
        }
        svg.line(plotLeft, top, plotLeft, top + plotHeight, stroke: "#666")
        svg.line(x(1), top - 6, x(1), top + plotHeight, stroke: "#C0392B", width: 1.5, dash: "5 3")
        svg.text("1.0x = reference", x: x(1) + 4, y: top - 8, size: 11, fill: "#C0392B")
        svg.text("wall time ÷ reference wall time (median; lower is better)" + (axis.logarithmic ? ", log scale" : ""),
                 x: plotLeft + plotWidth / 2, y: top + plotHeight + 38, anchor: .middle, size: 13)
        return svg.render(label: "\(title): ratio of each line's wall time to its reference")
    }

    /// Linear from 0 while the largest ratio is under 20x; logarithmic from the
    /// decade under the smallest ratio (at most 0.1x) beyond, so one 150x line
    /// does not flatten every 1.5x one.
    struct Axis {
        let logarithmic: Bool
        let lower: Double
        let upper: Double
        let ticks: [Double]

        init(smallest: Double, largest: Double) {
            logarithmic = largest >= 20
            if logarithmic {
                lower = Swift.min(0.1, pow(10, log10(smallest).rounded(.down)))
                upper = pow(10, log10(largest * 1.1).rounded(.up))
                ticks = LogLogChart.ticks(log10(lower)...log10(upper))
            } else {
                let maximum = Swift.max(1.2, largest * 1.1)
                let step = RatioBarChart.step(for: maximum)
                lower = 0
                upper = (maximum / step).rounded(.up) * step
                ticks = stride(from: 0, through: upper + 1e-9, by: step).map { $0 }
            }
        }

        /// 0 at the left end, 1 at the right.
        func position(_ ratio: Double) -> Double {
            logarithmic ? (log10(ratio) - log10(lower)) / (log10(upper) - log10(lower)) : ratio / upper
        }
    }

    /// A tick step giving about five to ten ticks: 0.25, 0.5, 1, 2, 5, 10…
    static func step(for maximum: Double) -> Double {
        let raw = maximum / 6
        let magnitude = pow(10, log10(raw).rounded(.down))
        for multiplier in [1.0, 2.5, 5, 10] where raw <= multiplier * magnitude {
            return multiplier * magnitude
        }
        return 10 * magnitude
    }
}
