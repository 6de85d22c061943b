import Foundation
import Testing
@testable import FaultlineBench

/// `export` writes Google Benchmark JSON and github-action-benchmark entries
/// with the keys those tools expect; `report` renders several suites at once;
/// a suite run leaves latest-<suite>.json, report.md and report.html.
@Suite("Exports, the report command and the report folder")
struct ExportAndReportCommandTests {
    private func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func reportFile(_ folder: TemporaryFolder, _ name: String = "report.json") throws -> String {
        let path = folder.path(name)
        try ReportFile.write(GateFixtures.report(GateFixtures.Run(seed: 1)), to: path)
        return path
    }

    @Test("Google Benchmark JSON: context and benchmarks with name, iterations, real/cpu time, unit, counters")
    func googleBenchmark() throws {
        let folder = try TemporaryFolder()
        let input = try reportFile(folder)
        let output = folder.path("gbench.json")
        var printed = ""
        #expect(ExportCommand.run(["--format", "google-benchmark", input, "--output", output]) { printed += $0 } == 0)
        let root = try #require(try json(output) as? [String: Any])
        let context = try #require(root["context"] as? [String: Any])
        for key in ["date", "num_cpus", "library_build_type", "executable"] { #expect(context[key] != nil, "\(key)") }
        let benchmarks = try #require(root["benchmarks"] as? [[String: Any]])
        #expect(benchmarks.count == 3)
        let batch = try #require(benchmarks.first { $0["name"] as? String == "Test/batch.insert/rows:1000" })
        for key in ["name", "run_name", "run_type", "iterations", "real_time", "cpu_time", "time_unit",
                    "statementsExecuted", "mallocsPerItem", "wallTimeRatio"] {
            #expect(batch[key] != nil, "\(key)")
        }
        #expect(batch["time_unit"] as? String == "ns")
        #expect(batch["iterations"] as? Int == 10)
        #expect((batch["real_time"] as? Double ?? 0) > 2_000_000)
    }

    @Test("github-action-benchmark: smaller-is-better times, counters and ratios; bigger-is-better throughput")
    func githubActionBenchmark() throws {
        let folder = try TemporaryFolder()
        var report = GateFixtures.report(GateFixtures.Run(seed: 1))
        report.benchmarks[1].metrics[Metric.throughput] = MetricResult(unit: "items/s", direction: .higherIsBetter, samples: [4e8])
        let input = folder.path("r.json")
        try ReportFile.write(report, to: input)
        let smaller = folder.path("smaller.json")
        let bigger = folder.path("bigger.json")
        let status = ExportCommand.run(["--format", "github-action-benchmark", input, "--output", smaller,
                                        "--bigger-output", bigger]) { _ in }
        #expect(status == 0)
        let small = try #require(try json(smaller) as? [[String: Any]])
        let big = try #require(try json(bigger) as? [[String: Any]])
        for entry in small + big {
            #expect(Set(entry.keys).isSubset(of: ["name", "unit", "value", "range", "extra"]))
            #expect(entry["name"] is String && entry["unit"] is String && entry["value"] is Double)
        }
        let names = small.compactMap { $0["name"] as? String }
        #expect(names.contains("Test: batch.insert rows=1000 — wallTime"))
        #expect(names.contains("Test: batch.insert rows=1000 — wallTimeRatio"))
        #expect(names.contains("Test: fault.lazy rows=1000 — statementsExecuted"))
        #expect(big.compactMap { $0["name"] as? String } == ["Test: batch.insert rows=1000 — throughput"])
    }

    @Test("Export and report refuse bad input with exit 2", arguments: [
        (["--format", "csv", "x.json", "--output", "o.json"], "--format"),
        (["--format", "google-benchmark", "x.json"], "--output"),
        (["--format", "google-benchmark", "--output", "o.json"], "at least one report"),
        (["--format", "google-benchmark", "/nonexistent/x.json", "--output", "o.json"], "/nonexistent/x.json"),
    ])
    func badExport(arguments: [String], fragment: String) {
        var output = ""
        #expect(ExportCommand.run(arguments) { output += $0 } == 2)
        #expect(output.contains(fragment))
    }

    @Test("An output that cannot be written is refused before any other output is written")
    func noHalfWrittenOutputs() throws {
        let folder = try TemporaryFolder()
        let input = try reportFile(folder)
        let first = folder.path("first.json")
        var output = ""
        let exported = ExportCommand.run(["--format", "github-action-benchmark", input, "--output", first,
                                          "--bigger-output", "/nonexistent/bigger.json"]) { output += $0 }
        #expect(exported == 2, "\(output)")
        #expect(output.contains("/nonexistent/bigger.json"), "\(output)")
        output = ""
        let reported = ReportCommand.run([input, "--markdown", folder.path("first.md"), "--html", ""]) { output += $0 }
        #expect(reported == 2, "\(output)")
        #expect(output.contains("no file name"), "\(output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["report.json"])
    }

    @Test("report renders several suites into one Markdown and one HTML file")
    func reportCommand() throws {
        let folder = try TemporaryFolder()
        let first = try reportFile(folder, "a.json")
        var other = GateFixtures.report(GateFixtures.Run(seed: 2))
        other.suite = "Second"
        let second = folder.path("b.json")
        try ReportFile.write(other, to: second)
        let markdown = folder.path("r.md")
        let html = folder.path("r.html")
        #expect(ReportCommand.run(["--markdown", markdown, "--html", html, first, second]) { _ in } == 0)
        let text = try String(contentsOfFile: markdown, encoding: .utf8)
        #expect(text.contains("### Test") && text.contains("### Second"))
        try HTMLChecker.check(String(contentsOfFile: html, encoding: .utf8))
        var printed = ""
        #expect(ReportCommand.run([first]) { printed += $0 } == 0)
        #expect(printed.contains("| `batch.insert` | rows=1000 |"))
        #expect(ReportCommand.run(["--html"]) { _ in } == 2)
        #expect(ReportCommand.run([folder.path("missing.json")]) { _ in } == 2)
    }

    @Test("A suite run with --report-dir writes latest-<suite>.json and summaries covering every latest file")
    func reportFolder() throws {
        let folder = try TemporaryFolder()
        let results = folder.path("Results")
        var earlier = GateFixtures.report(GateFixtures.Run(seed: 1))
        earlier.suite = "Earlier"
        try FileManager.default.createDirectory(atPath: results, withIntermediateDirectories: true)
        try ReportFile.write(earlier, to: ReportFolder.latestPath(suite: "Earlier", in: results))
        let suite = BenchmarkSuite("Quick", benchmarks: [
            Benchmark("count", parameters: ["rows": 10], items: 10, setUp: { 0 }, measure: { $0 += 1 }),
        ])
        let json = folder.path("run.json")
        let status = suite.run(arguments: ["--iterations", "2", "--warmup", "0", "--json", json,
                                           "--report-dir", results]) { _ in }
        #expect(status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: results).sorted()
        #expect(files == ["latest-Earlier.json", "latest-Quick.json", "report.html", "report.md"])
        let markdown = try String(contentsOfFile: (results as NSString).appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("### Earlier") && markdown.contains("### Quick"))
        // --json alone writes that file and nothing else.
        let alone = try TemporaryFolder()
        #expect(suite.run(arguments: ["--iterations", "1", "--json", alone.path("only.json")]) { _ in } == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: alone.url.path) == ["only.json"])
    }
}
