import Foundation
import Testing
@testable import FaultlineBench

/// A thresholds file is checked against the reports it gates: a metric or an
/// override that applies to nothing would change nothing, so a misspelling in
/// it exits 2 instead of passing unseen. Overrides for another suite are skipped.
@Suite("gate refuses a thresholds file naming a benchmark or metric the reports lack")
struct GateStrictnessTests {
    private func gate(_ thresholds: String, advisory: [String] = []) throws -> (status: Int32, output: String) {
        let folder = try TemporaryFolder()
        let base = folder.path("base.json")
        try ReportFile.write(GateFixtures.report(GateFixtures.Run(seed: 1)), to: base)
        let path = folder.path("thresholds.json")
        try Data(thresholds.utf8).write(to: URL(fileURLWithPath: path))
        var output = ""
        let status = GateCommand.run([base, base, "--thresholds", path] + advisory) { output += $0 }
        return (status, output)
    }

    @Test("Refused, naming the key", arguments: [
        (#"{"metrics": {"wallTme": {"kind": "time"}}}"#, "metrics.wallTme: no benchmark of the reports records it"),
        (#"{"benchmarks": [{"match": "fault.lazzy *", "minimumEffect": 0.2}]}"#,
         "benchmarks[0] (match 'fault.lazzy *') matches no benchmark of suite 'Test'"),
        (#"{"benchmarks": [{"regex": "^nothing", "alpha": 0.05}]}"#, "benchmarks[0] (regex '^nothing') matches no benchmark"),
        (#"{"benchmarks": [{"suite": "Test", "match": "raw.*", "metrics": {"mallocsPerItem": {"kind": "ignore"}}}]}"#,
         "benchmarks[0].metrics.mallocsPerItem: none of the benchmarks it matches records it"),
    ])
    func refused(thresholds: String, fragment: String) throws {
        let result = try gate(thresholds)
        expectRefused(result, naming: fragment)
        #expect(result.output.contains("thresholds.json: bad thresholds file"), "\(result.output)")
    }

    @Test("An override for another suite is skipped, and applies in its own")
    func otherSuite() throws {
        #expect(try gate(#"{"benchmarks": [{"suite": "Inserts", "match": "*saveEach*", "minimumEffect": 0.2}]}"#).status == 0)
        let own = #"{"benchmarks": [{"suite": "Test", "match": "batch.*", "metrics": {"mallocsPerItem": {"kind": "ignore"}}}]}"#
        #expect(try gate(own).status == 0)
        let thresholds = try GateThresholds.parse(Data(own.utf8), path: "own.json")
        #expect(thresholds.scoped(to: "Test").resolve(metric: Metric.mallocsPerItem, unit: "count/item",
                                                      benchmark: "batch.insert rows=1000").kind == .ignore)
        #expect(thresholds.scoped(to: "Other").resolve(metric: Metric.mallocsPerItem, unit: "count/item",
                                                       benchmark: "batch.insert rows=1000").kind == .counter)
    }

    @Test("--advisory with an unknown or no kind exits 2 naming it and the kinds", arguments: [
        (["--advisory", "speed"], "--advisory: unknown kind 'speed' (one of: counter, time, plan, budget, growth)"),
        (["--advisory", ","], "--advisory needs at least one name, got ','"),
        (["--advisory", "--strict"], "--advisory needs a value, got the option '--strict'"),
    ])
    func advisory(arguments: [String], fragment: String) throws {
        expectRefused(try gate("{}", advisory: arguments), naming: fragment)
    }

    @Test("The shipped thresholds files fit every committed baseline, as CI gates them", arguments: [
        ("Benchmarks/thresholds.json", "baseline-", 6),
        ("Benchmarks/time-thresholds.json", "baseline-timed-", 3),
    ])
    func shippedFitsBaselines(thresholdsFile: String, prefix: String, atLeast: Int) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent(thresholdsFile).path
        let thresholds = try GateThresholds.load(path)
        let results = root.appendingPathComponent("Results")
        let baselines = try FileManager.default.contentsOfDirectory(atPath: results.path)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
            // The instruction runs hold a few lines each; CI gates them with
            // the built-in thresholds. The timed runs have their own file.
            .filter { !$0.hasPrefix("baseline-instructions-") && (prefix == "baseline-timed-" || !$0.hasPrefix("baseline-timed-")) }
        #expect(baselines.count >= atLeast)
        for name in baselines {
            let report = try ReportFile.read(results.appendingPathComponent(name).path)
            #expect(throws: Never.self, "\(name)") {
                try thresholds.check(against: [report, report], suite: report.suite, path: path)
            }
        }
    }
}
