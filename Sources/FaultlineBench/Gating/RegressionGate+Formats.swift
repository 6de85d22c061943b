import Foundation

/// How `gate` writes its verdict.
public enum GateOutputFormat: String, CaseIterable, Sendable {
    /// The plain log the gate always wrote.
    case text
    /// A pull-request comment or CI step summary: the verdict, each finding
    /// in words, then a table.
    case markdown
    /// One object for bots.
    case json
    /// GitHub Actions workflow commands: an annotation per finding.
    case github
}

extension RegressionGate {
    /// The verdict in `format`, for the suite `suite`.
    public func render(_ format: GateOutputFormat, suite: String) -> String {
        switch format {
        case .text: render()
        case .markdown: markdown(suite: suite)
        case .json: json(suite: suite)
        case .github: github(suite: suite)
        }
    }

    /// A finding in words: what changed, by how much, and why it fails.
    static func sentence(_ finding: GateFinding) -> String {
        switch finding.kind {
        case .counter: "`\(finding.subject)` \(finding.before) → \(finding.after): \(finding.reason)"
        case .time: "`\(finding.subject)` \(finding.reason)"
        case .plan: "\(finding.subject): \(finding.reason)"
        case .budget, .growth: "`\(finding.subject)`: \(finding.reason)"
        }
    }

    func markdown(suite: String) -> String {
        let mark = passed ? (improvements.isEmpty ? "✅" : "⬆️") : "❌"
        var lines = ["### \(mark) \(suite): \(verdict)", ""]
        let ordered = failing + regressions.filter { advisory.contains($0.kind) }
        for finding in ordered {
            let label = advisory.contains(finding.kind) ? "advisory" : "regression"
            lines.append("- **\(label), \(finding.kind.rawValue)** `\(finding.benchmark)`: \(Self.sentence(finding))")
        }
        for finding in improvements {
            lines.append("- **improved** `\(finding.benchmark)`: `\(finding.subject)` \(finding.before) → \(finding.after)")
        }
        if !ordered.isEmpty || !improvements.isEmpty {
            lines += ["", "| | kind | benchmark | check | before | after |", "|---|---|---|---|---|---|"]
            for finding in ordered {
                let mark = advisory.contains(finding.kind) ? "⚠️" : "❌"
                lines.append("| \(mark) | \(finding.kind.rawValue) | `\(finding.benchmark)` | \(Self.cell(finding.subject)) | "
                             + "\(Self.cell(finding.before)) | \(Self.cell(finding.after)) |")
            }
            for finding in improvements {
                lines.append("| ⬆️ | counter | `\(finding.benchmark)` | \(Self.cell(finding.subject)) | "
                             + "\(Self.cell(finding.before)) | \(Self.cell(finding.after)) |")
            }
        }
        if !notes.isEmpty {
            if lines.last != "" { lines.append("") }
            lines += ["<details><summary>\(notes.count) note(s)</summary>", ""]
            lines += notes.map { "- " + Self.cell($0) }
            lines += ["", "</details>"]
        }
        return lines.joined(separator: "\n")
    }

    /// Text safe inside a markdown table cell: one line, pipes escaped.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    func json(suite: String) -> String {
        func object(_ finding: GateFinding) -> [String: Any] {
            ["kind": finding.kind.rawValue, "benchmark": finding.benchmark, "subject": finding.subject,
             "before": finding.before, "after": finding.after, "reason": finding.reason,
             "advisory": advisory.contains(finding.kind)]
        }
        let verdictWord = !passed ? "fail" : improvements.isEmpty ? "pass" : "improved"
        let document: [String: Any] = [
            "suite": suite, "verdict": verdictWord, "exitStatus": Int(exitStatus), "summary": verdict,
            "checks": Dictionary(uniqueKeysWithValues: checked.map { ($0.key.rawValue, $0.value) }),
            "untestedTimeComparisons": untestedTimes,
            "regressions": regressions.map(object), "improvements": improvements.map(object), "notes": notes,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys]),
              let text = String(data: data, encoding: .utf8)
        else { return "{}" }
        return text
    }

    /// `::error` for a failing regression, `::warning` for an advisory one,
    /// `::notice` for an improvement, then the verdict as a plain line.
    func github(suite: String) -> String {
        var lines: [String] = []
        for finding in regressions {
            let level = advisory.contains(finding.kind) ? "warning" : "error"
            let title = "\(suite) \(finding.kind.rawValue): \(finding.benchmark)"
            let message = "\(Self.sentence(finding)) (before: \(finding.before); after: \(finding.after))"
            lines.append("::\(level) title=\(Self.property(title))::\(Self.data(message))")
        }
        for finding in improvements {
            let title = "\(suite) improved: \(finding.benchmark)"
            lines.append("::notice title=\(Self.property(title))::"
                         + Self.data("\(finding.subject) \(finding.before) → \(finding.after)" + (refreshes ? ": refresh the baseline" : "")))
        }
        lines.append("\(suite): \(verdict)")
        return lines.joined(separator: "\n")
    }

    /// A workflow command's message: `%`, CR and LF escaped.
    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A workflow command's property value: as `data`, plus `:` and `,`.
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
