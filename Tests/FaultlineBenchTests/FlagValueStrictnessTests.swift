import Foundation
import Testing
@testable import FaultlineBench

/// `export`, `report` and the suite runner refuse an unknown value, a value of
/// the wrong form, a flag standing where its value should be, a value that
/// would be ignored, and input that would leave them nothing to do.
@Suite("export, report and the suite runner refuse values that would do nothing")
struct FlagValueStrictnessTests {
    private static func reports() throws -> (folder: TemporaryFolder, report: String, empty: String) {
        let folder = try TemporaryFolder()
        let report = folder.path("report.json")
        try ReportFile.write(GateFixtures.report(GateFixtures.Run(seed: 1)), to: report)
        let empty = folder.path("empty.json")
        try ReportFile.write(Fixtures.report(medians: [:]), to: empty)
        return (folder, report, empty)
    }

    private func export(_ arguments: [String]) -> (status: Int32, output: String) { run(ExportCommand.run, arguments) }
    private func report(_ arguments: [String]) -> (status: Int32, output: String) { run(ReportCommand.run, arguments) }

    private func run(_ command: ([String], (String) -> Void) -> Int32, _ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = command(arguments) { output += $0 }
        return (status, output)
    }

    @Test("export")
    func exportValues() throws {
        let (folder, input, empty) = try Self.reports()
        let output = folder.path("out.json")
        expectRefused(export(["--format", "csv", input, "--output", output]),
                      naming: "--format: unknown format 'csv' (one of: google-benchmark, github-action-benchmark)")
        expectRefused(export([input, "--output", output]), naming: "--format is required")
        expectRefused(export(["--format", "google-benchmark", input, "--output", output, "--bigger-output", folder.path("b.json")]),
                      naming: "--bigger-output '\(folder.path("b.json"))' applies to --format github-action-benchmark only")
        expectRefused(export(["--format", "--output", output, input]), naming: "--format needs a value, got the option '--output'")
        expectRefused(export(["--format", "google-benchmark", "--output", output, "--verbose", input]),
                      naming: "unknown argument '--verbose'")
        expectRefused(export(["--format", "google-benchmark", "--output", output, empty]),
                      naming: "empty.json: the report has no benchmark")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("report")
    func reportValues() throws {
        let (folder, input, empty) = try Self.reports()
        expectRefused(report(["--markdown", "--html", folder.path("r.html"), input]),
                      naming: "--markdown needs a value, got the option '--html'")
        expectRefused(report([input, empty]), naming: "empty.json: the report has no benchmark")
        expectRefused(report(["--svg", folder.path("r.svg"), input]), naming: "unknown argument '--svg'")
        expectRefused(report(["--markdown", folder.path("a.md"), "--markdown", folder.path("b.md"), input]),
                      naming: "--markdown given twice")
        expectRefused(export(["--format", "google-benchmark", "--format", "github-action-benchmark", input, "--output", folder.path("o.json")]),
                      naming: "--format given twice")
        expectRefused(run(GateCommand.run, [input, input, "--thresholds", "a.json", "--thresholds", "b.json"]),
                      naming: "--thresholds given twice")
        // Gathering flags may repeat: each adds to the list.
        var output = ""
        #expect(CompareCommand.run([input, input, "--metric", "wallTime", "--metric", "mallocsPerItem"]) { output += $0 } == 0, "\(output)")
    }

    @Test("The suite runner", arguments: [
        (["--filter", "nothing-matches", "--list"], "--filter 'nothing-matches' matches no benchmark of Strict"),
        (["--iterations", "--quiet"], "--iterations needs a value, got the option '--quiet'"),
        (["--iterations", "2.5"], "--iterations needs an integer ≥ 1, got '2.5'"),
        (["--warmup", "-1"], "--warmup needs an integer ≥ 0, got '-1'"),
        (["--max-seconds", "0"], "--max-seconds needs a number > 0, got '0'"),
        (["--max-seconds", "inf"], "got 'inf'"),
        (["--max-seconds", "1e11"], "--max-seconds needs a number ≤ 1000000000"),
        (["--json", "--quiet"], "--json needs a value, got the option '--quiet'"),
        (["--report-dir", "--list"], "--report-dir needs a value, got the option '--list'"),
        (["--profile", "Quick"], "--profile must be one of quick, standard, full, got 'Quick'"),
        // A flag given twice is refused, not silently replaced by the second.
        (["--iterations", "3", "--iterations", "5"], "--iterations given twice"),
        (["--profile", "quick", "--profile=full"], "--profile given twice"),
        (["--filter", "one", "--filter", "two"], "--filter given twice"),
    ])
    func suiteRunner(arguments: [String], fragment: String) {
        let suite = BenchmarkSuite("Strict", benchmarks: [Benchmark("one", items: 1, setUp: { 0 }, measure: { $0 += 1 })])
        expectRefused(run({ suite.run(arguments: $0, write: $1) }, arguments), naming: fragment)
    }
}
