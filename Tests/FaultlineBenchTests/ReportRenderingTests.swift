import Foundation
import Testing
@testable import FaultlineBench

/// The Markdown and HTML reports show every benchmark, escape all text, and
/// the HTML is self-contained, well-formed, with labelled SVG charts; the
/// heat map appears only for benchmarks that differ by a `strategy`.
@Suite("Report rendering")
struct ReportRenderingTests {
    /// Inserts-like: three methods at three row counts, one with markup in its name.
    private func inserts() -> Report {
        var report = GateFixtures.report(GateFixtures.Run(seed: 1))
        var results: [BenchmarkResult] = []
        for rows in [1_000, 10_000, 100_000] {
            for (name, reference, factor) in [("raw.insert", nil, 1.0), ("typed.batch", "raw.insert", 1.7),
                                              ("per-object <&> \"save\"", "raw.insert", 6.4)] {
                let wall = (0..<5).map { Double(rows) * 400 * factor * (1 + Double($0) * 0.01) }
                results.append(BenchmarkResult(
                    id: BenchmarkID.make(name: name, parameters: ["rows": .int(rows)]), suite: "Inserts", name: name,
                    parameters: ["rows": .int(rows)], items: rows, warmupIterations: 1, iterations: 5,
                    reference: reference,
                    metrics: [Metric.wallTime: MetricResult(unit: "ns", direction: .lowerIsBetter, samples: wall),
                              Metric.throughput: MetricResult(unit: "items/s", direction: .higherIsBetter,
                                                              samples: wall.map { Double(rows) / ($0 / 1e9) }),
                              Metric.mallocsPerItem: MetricResult(unit: "count/item", direction: .lowerIsBetter,
                                                                  samples: [factor])],
                    comparison: nil))
            }
        }
        report.suite = "Inserts"
        report.benchmarks = ReferenceComparison.attach(to: results)
        return report
    }

    /// Faulting-like: one benchmark name, a `strategy` parameter, counters.
    private func faulting() -> Report {
        var report = GateFixtures.report(GateFixtures.Run(seed: 1))
        report.suite = "Faulting"
        report.benchmarks = [("lazy", 10_001.0, 5e6), ("batch-64", 158, 2.1e6), ("prefetch", 2, 2.3e6)].map { strategy, statements, wall in
            let parameters: [String: ParameterValue] = ["graph": "1000x100", "strategy": .string(strategy)]
            return BenchmarkResult(
                id: BenchmarkID.make(name: "faulting.profile", parameters: parameters), suite: "Faulting",
                name: "faulting.profile", parameters: parameters, items: 1000, warmupIterations: 1, iterations: 1,
                reference: nil,
                metrics: [Metric.wallTime: MetricResult(unit: "ns", direction: .lowerIsBetter, samples: [wall]),
                          "statementsExecuted": MetricResult(unit: "count", direction: .lowerIsBetter, samples: [statements]),
                          "faultsFired": MetricResult(unit: "count", direction: .lowerIsBetter, samples: [1000])],
                comparison: nil)
        }
        return report
    }

    @Test("Markdown: a table row per benchmark, the run line, escaped cells, the debug warning when debug")
    func markdown() {
        var debug = inserts()
        debug.metadata.buildConfiguration = "debug"
        let text = MarkdownReport.render([inserts(), faulting()])
        #expect(text.contains("### Inserts"))
        #expect(text.contains("### Faulting"))
        #expect(text.contains("| benchmark | parameters | median | reference beside it | throughput | vs reference | mallocs/item | bytes/item | page faults/item | fsyncs/item | written/item |"))
        #expect(text.contains("| `typed.batch` | rows=10000 |"))
        #expect(text.contains("1.70x raw.insert"))
        #expect(text.contains("release · abc"))
        #expect(!text.contains("DEBUG BUILD"))
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("| `") }.count == 9 + 3)
        #expect(MarkdownReport.render([debug]).contains("DEBUG BUILD"))
        #expect(MarkdownReport.escape("a|b<c>") == "a\\|b&lt;c&gt;")
    }

    @Test("A paired line shows the reference time taken beside it, the one its ratio divides by; other lines a dash")
    func pairedReferenceColumn() throws {
        var report = inserts()
        var line = try #require(report.benchmarks.first { $0.reference != nil })
        line.metrics[Metric.referenceWallTime] = MetricResult(unit: "ns", direction: .lowerIsBetter, samples: [2_000_000, 4_000_000, 3_000_000])
        report.benchmarks = [line] + report.benchmarks.filter { $0.reference == nil }
        #expect(ReportText.pairedReference(line) == ResultTable.formatDuration(3_000_000))
        let rows = MarkdownReport.render([report]).split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.first?.contains("| \(ResultTable.formatDuration(3_000_000)) |") == true)
        #expect(rows.dropFirst().allSatisfy { $0.contains("| – |") })
        #expect(HTMLReport.render([report]).contains("<th>reference beside it</th>"))
    }

    @Test("A line without wall times or throughput shows a dash in the suite's table, the Markdown and the HTML, never 0 ns")
    func missingTimes() throws {
        var report = inserts()
        var line = report.benchmarks[0]
        line.metrics[Metric.wallTime] = nil
        line.metrics[Metric.throughput] = nil
        report.benchmarks = [line]
        let table = ResultTable.render(report).split(separator: "\n").filter { $0.hasPrefix(line.name) }
        let markdown = MarkdownReport.render([report]).split(separator: "\n").filter { $0.hasPrefix("| `") }
        for row in table + markdown {
            #expect(!row.contains("0 ns") && !row.contains("0 /s"), "\(row)")
        }
        // Columns: benchmark, parameters, median, throughput, vs reference, …
        let cells = try #require(table.first).split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(Array(cells.prefix(5)) == ["raw.insert", "rows=1000", "–", "–", "(reference)"])
        #expect(markdown.first?.hasPrefix("| `raw.insert` | rows=1000 | – | – | – | reference |") == true)
        let page = HTMLReport.render([report])
        try HTMLChecker.check(page)
        #expect(!page.contains(">0 ns<") && !page.contains(">0 /s<"))
        #expect(page.contains("<td>rows=1000</td><td class=\"number\">–</td><td class=\"number\">–</td><td class=\"number\">–</td>"))
    }

    @Test("vs reference names a Faulting strategy's reference by the parameter it overrides, not the name all lines share")
    func referenceLabels() throws {
        var report = GateFixtures.report(GateFixtures.Run(seed: 1))
        report.benchmarks = ReferenceComparison.attach(to: [("raw", nil, 1e6), ("lazy", "profile strategy=raw", 3e6)].map {
            strategy, reference, wall in
            let parameters: [String: ParameterValue] = ["graph": "100x10", "strategy": .string(strategy)]
            return BenchmarkResult(
                id: BenchmarkID.make(name: "profile", parameters: parameters), suite: "Faulting", name: "profile",
                parameters: parameters, items: 100, warmupIterations: 0, iterations: 1, reference: reference,
                metrics: [Metric.wallTime: MetricResult(unit: "ns", direction: .lowerIsBetter, samples: [wall])], comparison: nil)
        })
        let lazy = try #require(report.benchmarks.last)
        #expect(lazy.comparison?.reference == "profile graph=100x10 strategy=raw")
        let table = ResultTable.render(report)
        #expect(table.contains("3.00x (strategy=raw)") && !table.contains("(profile)"), "\(table)")
        #expect(MarkdownReport.render([report]).contains("| 3.00x strategy=raw |"))
        #expect(HTMLReport.render([report]).contains(">3.00x strategy=raw<"))
        // A reference of another name keeps its name.
        let inserts = ResultTable.render(inserts())
        #expect(inserts.contains("1.70x (raw.insert)"), "\(inserts)")
    }

    @Test("HTML: well-formed, self-contained, with labelled log-log axes, ratio bars and escaped text")
    func html() throws {
        let page = HTMLReport.render([inserts()])
        try HTMLChecker.check(page)
        #expect(page.contains("<svg"))
        #expect(!page.lowercased().contains("http"))
        #expect(!page.contains("<script"))
        #expect(page.contains("rows (log scale)"))
        #expect(page.contains("throughput (items/s) (log scale)"))
        #expect(page.contains(">10K</text>"))
        #expect(page.contains("1.0x = reference"))
        #expect(page.contains("per-object &lt;&amp;&gt; &quot;save&quot;"))
        #expect(!page.contains("<&>"))
        #expect(!page.contains("heat map"))
    }

    @Test("Ratio bars are labelled by what differs between lines; what all share is said once in the title")
    func distinguishingLabels() {
        let (labels, shared) = HTMLReport.distinguishingLabels(faulting().benchmarks)
        #expect(labels == ["faulting.profile strategy=lazy", "faulting.profile strategy=batch-64",
                           "faulting.profile strategy=prefetch"])
        #expect(shared == "graph=1000x100")
        let rows = HTMLReport.distinguishingLabels(inserts().benchmarks)
        #expect(rows.labels.first == "raw.insert rows=1000")
        #expect(rows.shared.isEmpty)
        #expect(HTMLReport.distinguishingLabels([]).labels.isEmpty)
    }

    @Test("The raw reference is the floor of the matrix, never named its cheapest strategy")
    func referenceRow() throws {
        var report = faulting()
        let raw = BenchmarkResult(
            id: BenchmarkID.make(name: "faulting.profile", parameters: ["graph": "1000x100", "strategy": "raw"]),
            suite: "Faulting", name: "faulting.profile", parameters: ["graph": "1000x100", "strategy": "raw"],
            items: 1000, warmupIterations: 1, iterations: 1, reference: nil,
            metrics: [Metric.wallTime: MetricResult(unit: "ns", direction: .lowerIsBetter, samples: [1e6]),
                      "statementsExecuted": MetricResult(unit: "count", direction: .lowerIsBetter, samples: [2])],
            comparison: nil)
        report.benchmarks = ReferenceComparison.attach(to: [raw] + report.benchmarks.map { result in
            var result = result
            result.reference = "faulting.profile strategy=raw"
            return result
        })
        let matrix = try #require(StrategyMatrix.matrices(from: report).first)
        #expect(matrix.rows == ["raw", "lazy", "batch-64", "prefetch"])
        #expect(matrix.referenceRows == [0])
        #expect(matrix.cheapestRows(in: 0) == [0])
        #expect(matrix.cheapestStrategies(in: 0) == [2])
        #expect(matrix.cheapestStrategies(in: 1) == [3])
        #expect(HTMLReport.render([report]).contains(
            "Cheapest strategy by wall time: <strong>batch-64</strong> (the reference, raw, is the floor)</p>"))
    }

    @Test("Long labels are cut in the middle, keeping the distinguishing tail")
    func truncation() {
        #expect(LogLogChart.truncated("profile graph=200x20x10 keypaths=books.chapters strategy=batch1000", to: 40)
                == "profile graph=200x20… strategy=batch1000")
        #expect(LogLogChart.truncated("short", to: 40) == "short")
    }

    @Test("Several suites: a link per suite to its section's anchor")
    func navigation() throws {
        let page = HTMLReport.render([inserts(), faulting()])
        try HTMLChecker.check(page)
        #expect(page.contains("<nav><a href=\"#suite-Inserts\">Inserts</a> · <a href=\"#suite-Faulting\">Faulting</a></nav>"))
        #expect(page.contains("<section id=\"suite-Faulting\">"))
        #expect(HTMLReport.anchor("My \"Suite\" <1>") == "suite-My--Suite---1-")
        #expect(!HTMLReport.render([inserts()]).contains("<nav>"))
    }

    @Test("The heat map appears for strategies, names the cheapest cells, and tolerates ties")
    func heatMap() throws {
        let matrices = StrategyMatrix.matrices(from: faulting())
        let matrix = try #require(matrices.first)
        #expect(matrices.count == 1)
        #expect(matrix.rows == ["lazy", "batch-64", "prefetch"])
        #expect(matrix.columns.map(\.name) == [Metric.wallTime, "statementsExecuted", "faultsFired"])
        #expect(matrix.cheapestRows(in: 0) == [1])
        #expect(matrix.cheapestRows(in: 1) == [2])
        #expect(matrix.cheapestRows(in: 2) == [0, 1, 2])
        let page = HTMLReport.render([faulting()])
        try HTMLChecker.check(page)
        #expect(page.contains("heat map"))
        #expect(page.contains("Cheapest strategy by wall time: <strong>batch-64</strong></p>"))
        #expect(StrategyMatrix.matrices(from: inserts()).isEmpty)
    }

    @Test("The HTML checker itself catches unclosed and mismatched tags")
    func checker() {
        #expect(throws: HTMLChecker.Problem.self) { try HTMLChecker.check("<div><p>text</div>") }
        #expect(throws: HTMLChecker.Problem.self) { try HTMLChecker.check("<svg><g>") }
        #expect(throws: Never.self) { try HTMLChecker.check("<!DOCTYPE html><p>a<br>b<img src=\"x\"/></p>") }
    }
}

/// A tiny well-formedness check: every opened tag is closed, in order; void
/// elements and self-closing tags need no closing tag.
enum HTMLChecker {
    struct Problem: Error, CustomStringConvertible { let description: String }
    static let void: Set<String> = ["meta", "br", "hr", "img", "input", "link"]

    static func check(_ html: String) throws {
        let expression = try NSRegularExpression(pattern: "<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(/?)>")
        var stack: [String] = []
        for match in expression.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            guard let closing = Range(match.range(at: 1), in: html), let name = Range(match.range(at: 2), in: html),
                  let selfClosing = Range(match.range(at: 3), in: html) else { continue }
            let tag = html[name].lowercased()
            if !html[selfClosing].isEmpty || void.contains(tag) { continue }
            if html[closing].isEmpty {
                stack.append(tag)
            } else if stack.popLast() != tag {
                throw Problem(description: "</\(tag)> closes the wrong element")
            }
        }
        if let open = stack.last { throw Problem(description: "<\(open)> is never closed") }
    }
}
