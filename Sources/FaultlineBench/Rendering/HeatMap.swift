import Foundation

/// Draws a `StrategyMatrix` as a heat map: one colour scale per column (green
/// best, through yellow, to red worst; logarithmic when the column spans more
/// than 10×), the median in each cell, and the cheapest cell of each column
/// outlined and starred (every one of them on a tie).
struct HeatMap {
    var matrix: StrategyMatrix

    private let labelWidth = 220.0, cellWidth = 130.0, cellHeight = 30.0, top = 74.0

    func render() -> String? {
        guard !matrix.rows.isEmpty, !matrix.columns.isEmpty else { return nil }
        let width = labelWidth + cellWidth * Double(matrix.columns.count) + 20
        let height = top + cellHeight * Double(matrix.rows.count) + 40
        var svg = SVGWriter(width: width, height: height)
        svg.text(matrix.title, x: 10, y: 22, size: 15, bold: true)
        for (column, info) in matrix.columns.enumerated() {
            let x = labelWidth + cellWidth * Double(column) + cellWidth / 2
            svg.text(info.name, x: x, y: top - 26, anchor: .middle, size: 12, bold: true)
            svg.text(info.unit + (info.lowerIsBetter ? ", lower is better" : ", higher is better"),
                     x: x, y: top - 10, anchor: .middle, size: 10, fill: "#555")
        }
        for (row, name) in matrix.rows.enumerated() {
            svg.text(LogLogChart.truncated(name, to: 30), x: labelWidth - 10, y: top + cellHeight * Double(row) + 19,
                     anchor: .end, size: 12)
        }
        for column in matrix.columns.indices {
            let scale = ColumnScale(values: matrix.rows.indices.compactMap { matrix.values[$0][column] },
                                    lowerIsBetter: matrix.columns[column].lowerIsBetter)
            let cheapest = matrix.cheapestRows(in: column)
            for row in matrix.rows.indices {
                let x = labelWidth + cellWidth * Double(column)
                let y = top + cellHeight * Double(row)
                guard let value = matrix.values[row][column] else {
                    svg.rect(x: x, y: y, width: cellWidth, height: cellHeight, fill: "#eeeeee", stroke: "#fff")
                    svg.text("–", x: x + cellWidth / 2, y: y + 19, anchor: .middle, size: 12, fill: "#777")
                    continue
                }
                let best = cheapest.contains(row)
                svg.rect(x: x, y: y, width: cellWidth, height: cellHeight, fill: scale.colour(value),
                         stroke: best ? "#111" : "#fff", strokeWidth: best ? 3 : 1,
                         tooltip: "\(matrix.rows[row]) · \(matrix.columns[column].name): \(Self.format(value, matrix.columns[column].unit))")
                svg.text((best ? "★ " : "") + Self.format(value, matrix.columns[column].unit),
                         x: x + cellWidth / 2, y: y + 19, anchor: .middle, size: 12, bold: best)
            }
        }
        svg.text("★ cheapest in its column · colours scaled per column: green best, red worst",
                 x: labelWidth, y: height - 12, size: 11, fill: "#555")
        return svg.render(label: "\(matrix.title): strategies against metrics, heat map")
    }

    static func format(_ value: Double, _ unit: String) -> String {
        switch unit {
        case "ns": return ResultTable.formatDuration(value)
        case "bytes": return String(format: "%.1f MiB", value / 1_048_576)
        case "items/s": return ResultTable.formatRate(value)
        default:
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.3g", value)
        }
    }
}

/// Maps a column's values onto green (best) – yellow – red (worst).
struct ColumnScale {
    let low: Double, high: Double, logarithmic: Bool, lowerIsBetter: Bool

    init(values: [Double], lowerIsBetter: Bool) {
        let low = values.min() ?? 0, high = values.max() ?? 0
        self.logarithmic = low > 0 && high / low > 10
        self.low = logarithmic ? log10(low) : low
        self.high = logarithmic ? log10(high) : high
        self.lowerIsBetter = lowerIsBetter
    }

    func colour(_ value: Double) -> String {
        let position = logarithmic ? log10(value) : value
        var badness = high > low ? (position - low) / (high - low) : 0
        if !lowerIsBetter { badness = 1 - badness }
        let stops: [(Double, Double, Double)] = [(0x1a, 0x98, 0x50), (0xfe, 0xe0, 0x8b), (0xd7, 0x30, 0x27)]
        let scaled = min(max(badness, 0), 1) * 2
        let index = min(Int(scaled), 1)
        let t = scaled - Double(index)
        let (a, b) = (stops[index], stops[index + 1])
        let channel = { (from: Double, to: Double) in Int((from + (to - from) * t).rounded()) }
        return String(format: "#%02x%02x%02x", channel(a.0, b.0), channel(a.1, b.1), channel(a.2, b.2))
    }
}
