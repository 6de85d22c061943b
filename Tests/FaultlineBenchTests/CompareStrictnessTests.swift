import Foundation
import Testing
@testable import FaultlineBench

/// `compare` never reports "no regression" having compared nothing: a metric
/// no common benchmark records, or reports that share no benchmark, exit 2.
@Suite("compare refuses a metric the reports lack and reports with nothing in common")
struct CompareStrictnessTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = CompareCommand.run(arguments) { output += $0 }
        return (status, output)
    }

    private func write(_ medians: [String: Double], _ folder: TemporaryFolder, _ name: String) throws -> String {
        let path = folder.path(name)
        try ReportFile.write(Fixtures.report(medians: medians), to: path)
        return path
    }

    @Test("A misspelt metric exits 2 naming it and the metrics there are")
    func unknownMetric() throws {
        let folder = try TemporaryFolder()
        let base = try write(["a": 100], folder, "base.json")
        let current = try write(["a": 100], folder, "current.json")
        expectRefused(run([base, current, "--metric", "walltime"]), naming: "unknown metric 'walltime' (one of: throughput, wallTime)")
        expectRefused(run([base, current, "--metric", "wallTime,mallocs"]), naming: "unknown metric 'mallocs'")
        #expect(run([base, current, "--metric", "wallTime,throughput"]).status == 0)
    }

    @Test("Reports of different suites exit 2 naming both: their lines may share a name and measure different work")
    func differentSuites() throws {
        let folder = try TemporaryFolder()
        let base = try write(["a": 100], folder, "base.json")
        var report = Fixtures.report(medians: ["a": 100])
        report.suite = "Other"
        let other = folder.path("other.json")
        try ReportFile.write(report, to: other)
        expectRefused(run([base, other]), naming: "compare reports of the same suite")
    }

    @Test("Reports that share no benchmark exit 2 naming both")
    func nothingInCommon() throws {
        let folder = try TemporaryFolder()
        let base = try write(["a": 100], folder, "base.json")
        let other = try write(["b": 100], folder, "other.json")
        expectRefused(run([base, other]), naming: "base.json and \(other) have no benchmark in common")
    }

    @Test("A report without benchmarks exits 2 naming it")
    func emptyReport() throws {
        let folder = try TemporaryFolder()
        let base = try write(["a": 100], folder, "base.json")
        let empty = try write([:], folder, "empty.json")
        expectRefused(run([empty, base]), naming: "empty.json: the report has no benchmark")
    }

    @Test("Flag values of the wrong form exit 2 naming the value", arguments: [
        (["a.json", "b.json", "--threshold", "five"], "--threshold needs a number ≥ 0, got 'five'"),
        (["a.json", "b.json", "--threshold", "-3"], "got '-3'"),
        (["a.json", "b.json", "--threshold", "nan"], "got 'nan'"),
        (["a.json", "b.json", "--metric", ","], "--metric needs at least one name, got ','"),
        (["a.json", "b.json", "--metric", "--threshold", "5"], "--metric needs a value, got the option '--threshold'"),
    ])
    func badValues(arguments: [String], fragment: String) {
        expectRefused(run(arguments), naming: fragment)
    }
}
