import Foundation

/// Escapes text for HTML and SVG content and attribute values.
enum Markup {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

/// A minimal inline-SVG writer: the few shapes the report's charts draw,
/// every text escaped, coordinates rounded to 0.1 px. No scripts, no links.
struct SVGWriter {
    let width: Double
    let height: Double
    private var elements: [String] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    enum Anchor: String { case start, middle, end }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
                       stroke: String, width: Double = 1, dash: String? = nil) {
        let dashAttribute = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
        elements.append("<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" "
                        + "stroke=\"\(stroke)\" stroke-width=\"\(n(width))\"\(dashAttribute)/>")
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String,
                       stroke: String? = nil, strokeWidth: Double = 1, tooltip: String? = nil) {
        let strokeAttribute = stroke.map { " stroke=\"\($0)\" stroke-width=\"\(n(strokeWidth))\"" } ?? ""
        let open = "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(0, width)))\" height=\"\(n(max(0, height)))\" "
            + "fill=\"\(fill)\"\(strokeAttribute)"
        elements.append(tooltip.map { open + "><title>\(Markup.escape($0))</title></rect>" } ?? open + "/>")
    }

    mutating func circle(cx: Double, cy: Double, radius: Double, fill: String, tooltip: String? = nil) {
        let open = "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(radius))\" fill=\"\(fill)\""
        elements.append(tooltip.map { open + "><title>\(Markup.escape($0))</title></circle>" } ?? open + "/>")
    }

    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, width: Double = 2, dash: String? = nil) {
        guard points.count > 1 else { return }
        let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        let dashAttribute = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
        elements.append("<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" "
                        + "stroke-width=\"\(n(width))\" stroke-linejoin=\"round\"\(dashAttribute)/>")
    }

    mutating func text(_ content: String, x: Double, y: Double, anchor: Anchor = .start, size: Double = 12,
                       bold: Bool = false, fill: String = "#222", rotation: Double? = nil) {
        let rotate = rotation.map { " transform=\"rotate(\(n($0)) \(n(x)) \(n(y)))\"" } ?? ""
        let weight = bold ? " font-weight=\"bold\"" : ""
        elements.append("<text x=\"\(n(x))\" y=\"\(n(y))\" text-anchor=\"\(anchor.rawValue)\" "
                        + "font-size=\"\(n(size))\" fill=\"\(fill)\"\(weight)\(rotate)>\(Markup.escape(content))</text>")
    }

    /// The finished `<svg>` element; `label` is its accessible title.
    func render(label: String) -> String {
        // Inline SVG in HTML needs no namespace declaration, which keeps the page free of URLs.
        "<svg width=\"\(n(width))\" height=\"\(n(height))\" "
            + "viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\" aria-label=\"\(Markup.escape(label))\" "
            + "font-family=\"sans-serif\">\n<title>\(Markup.escape(label))</title>\n"
            + elements.joined(separator: "\n") + "\n</svg>"
    }

    private func n(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// Distinct line colours (Okabe–Ito and Tableau hues), then dash patterns
/// once the colours run out.
enum ChartPalette {
    static let colours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
                          "#000000", "#8C564B", "#7F7F7F", "#BCBD22"]
    static let dashes: [String?] = [nil, "6 3", "2 3", "8 3 2 3"]

    static func style(_ index: Int) -> (colour: String, dash: String?) {
        (colours[index % colours.count], dashes[(index / colours.count) % dashes.count])
    }
}
