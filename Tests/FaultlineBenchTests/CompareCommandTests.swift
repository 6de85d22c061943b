import Foundation
import Testing
@testable import FaultlineBench

/// `faultline-bench compare` exits 0 without a regression, 1 with one and 2 on
/// unreadable or incompatible input, on crafted reports.
@Suite("Comparing reports")
struct CompareCommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = CompareCommand.run(arguments) { output += $0 }
        return (status, output)
    }

    private func write(_ report: Report, _ folder: TemporaryFolder, _ name: String) throws -> String {
        let path = folder.path(name)
        try ReportFile.write(report, to: path)
        return path
    }

    @Test("Identical reports: exit 0")
    func identical() throws {
        let folder = try TemporaryFolder()
        let report = Fixtures.report(medians: ["a rows=1": 100, "b rows=1": 200])
        let base = try write(report, folder, "base.json")
        let current = try write(report, folder, "current.json")
        let result = run([base, current])
        #expect(result.status == 0)
        #expect(result.output.contains("no regression"))
    }

    @Test("A change within the threshold passes; beyond it fails with exit 1")
    func threshold() throws {
        let folder = try TemporaryFolder()
        let base = try write(Fixtures.report(medians: ["a": 100]), folder, "base.json")
        let slower = try write(Fixtures.report(medians: ["a": 108]), folder, "slower.json")
        #expect(run([base, slower, "--threshold", "10"]).status == 0)
        let failing = run([base, slower, "--threshold", "5"])
        #expect(failing.status == 1)
        #expect(failing.output.contains("REGRESSION"))
        #expect(failing.output.contains("+8.00%"))
    }

    @Test("Faster is never a regression; for higher-is-better metrics a drop is")
    func directions() throws {
        let folder = try TemporaryFolder()
        let base = try write(Fixtures.report(medians: ["a": 100]), folder, "base.json")
        let faster = try write(Fixtures.report(medians: ["a": 50]), folder, "faster.json")
        #expect(run([base, faster]).status == 0)
        // Halving the time doubles throughput: fine. Doubling the time halves it: a regression.
        let slower = try write(Fixtures.report(medians: ["a": 200]), folder, "slower.json")
        #expect(run([base, slower, "--metric", "throughput"]).status == 1)
        #expect(run([base, faster, "--metric", "throughput"]).status == 0)
    }

    @Test("Several metrics, repeated or comma-separated, are all gated")
    func metrics() throws {
        let folder = try TemporaryFolder()
        let base = try write(Fixtures.report(medians: ["a": 100], extra: ["a": 10]), folder, "base.json")
        let moreMallocs = try write(Fixtures.report(medians: ["a": 100], extra: ["a": 11]), folder, "more.json")
        #expect(run([base, moreMallocs]).status == 0)
        #expect(run([base, moreMallocs, "--metric", "wallTime", "--metric", "mallocs"]).status == 1)
        #expect(run([base, moreMallocs, "--metric", "wallTime,mallocs"]).status == 1)
    }

    @Test("From a zero baseline the change reads 'from zero', not '+inf%'; growth regresses whatever the threshold")
    func zeroBaseline() throws {
        let folder = try TemporaryFolder()
        let none = try write(Fixtures.report(medians: ["a": 100], extra: ["a": 0]), folder, "none.json")
        let some = try write(Fixtures.report(medians: ["a": 100], extra: ["a": 5]), folder, "some.json")
        let grew = run([none, some, "--metric", "mallocs", "--threshold", "1000"])
        #expect(grew.status == 1)
        #expect(grew.output.contains("REGRESSION  a  mallocs: 0 -> 5 (from zero)"), "\(grew.output)")
        #expect(!grew.output.contains("inf"))
        let fell = run([some, none, "--metric", "mallocs"])
        #expect(fell.status == 0)
        #expect(fell.output.contains("mallocs: 5 -> 0 (-100.00%)"), "\(fell.output)")
        let still = run([none, none, "--metric", "mallocs"])
        #expect(still.status == 0 && still.output.contains("mallocs: 0 -> 0 (+0.00%)"), "\(still.output)")
    }

    @Test("Benchmarks on one side only are listed, not fatal")
    func oneSided() throws {
        let folder = try TemporaryFolder()
        let base = try write(Fixtures.report(medians: ["a": 100, "gone": 5]), folder, "base.json")
        let current = try write(Fixtures.report(medians: ["a": 100, "new": 5]), folder, "current.json")
        let result = run([base, current])
        #expect(result.status == 0)
        #expect(result.output.contains("only in baseline: gone"))
        #expect(result.output.contains("only in current: new"))
    }

    @Test("Unreadable, malformed or wrong-version input: exit 2, naming the file")
    func badInput() throws {
        let folder = try TemporaryFolder()
        let good = try write(Fixtures.report(medians: ["a": 100]), folder, "good.json")
        let malformed = folder.path("malformed.json")
        try Data("[1, 2".utf8).write(to: URL(fileURLWithPath: malformed))
        let old = folder.path("old.json")
        try Data(#"{"schemaVersion": 0, "benchmarks": []}"#.utf8).write(to: URL(fileURLWithPath: old))
        for (arguments, fragment) in [
            ([good, folder.path("missing.json")], "missing.json"),
            ([malformed, good], "malformed.json"),
            ([good, old], "schemaVersion 0"),
        ] {
            let result = run(arguments)
            #expect(result.status == 2)
            #expect(result.output.contains(fragment))
        }
    }

    @Test("Bad command lines: exit 2 with the problem named", arguments: [
        ([String](), "exactly two"),
        (["a.json"], "exactly two"),
        (["a.json", "b.json", "--threshold"], "--threshold"),
        (["a.json", "b.json", "--threshold", "-3"], "--threshold"),
        (["a.json", "b.json", "--frobnicate"], "--frobnicate"),
        (["a.json", "b.json", "--metric"], "--metric"),
    ])
    func badArguments(arguments: [String], fragment: String) {
        let result = run(arguments)
        #expect(result.status == 2)
        #expect(result.output.contains(fragment))
    }
}
