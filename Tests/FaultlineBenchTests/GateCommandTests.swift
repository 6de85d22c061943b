import Foundation
import Testing
@testable import FaultlineBench

/// `faultline-bench gate` exits 0 on a pass, 1 on a regression with the
/// reason printed, and 2 on bad reports or a bad thresholds file, naming it.
@Suite("Gate command")
struct GateCommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = GateCommand.run(arguments) { output += $0 }
        return (status, output)
    }

    private func write(_ run: GateFixtures.Run, _ folder: TemporaryFolder, _ name: String) throws -> String {
        try write(GateFixtures.report(run), folder, name)
    }

    private func write(text: String, _ folder: TemporaryFolder, _ name: String) throws -> String {
        let path = folder.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("Pass: exit 0 with a summary; regression: exit 1 listing kind, before, after and why")
    func exitStatus() throws {
        let folder = try TemporaryFolder()
        let base = try write(GateFixtures.Run(seed: 1), folder, "base.json")
        let same = try write(GateFixtures.Run(seed: 2), folder, "same.json")
        let passing = run([base, same])
        #expect(passing.status == 0)
        #expect(passing.output.contains("gate passed"))
        let worse = try write(GateFixtures.Run(seed: 2, extraStatementsPerFault: 1, categoryPlan: "SCAN ZARTICLE"),
                              folder, "worse.json")
        let failing = run([base, worse])
        #expect(failing.status == 1)
        #expect(failing.output.contains("REGRESSION [counter] fault.lazy rows=1000 — statementsExecuted"))
        #expect(failing.output.contains("before: 101 count"))
        #expect(failing.output.contains("after:  201 count"))
        #expect(failing.output.contains("REGRESSION [plan]"))
        #expect(failing.output.contains("gate FAILED: 2 regression(s) (1 counter, 1 plan)"))
    }

    @Test("A version 1 report (no query plans) is still read and gated")
    func versionOne() throws {
        let folder = try TemporaryFolder()
        var old = GateFixtures.report(GateFixtures.Run(seed: 1))
        old.schemaVersion = 1
        for index in old.benchmarks.indices { old.benchmarks[index].queryPlans = nil }
        let base = folder.path("v1.json")
        try ReportFile.write(old, to: base)
        let current = try write(GateFixtures.Run(seed: 2), folder, "v2.json")
        #expect(run([base, current]).status == 0)
    }

    @Test("Bad thresholds files exit 2 naming the file and the problem", arguments: [
        (#"{"alpha": 0.05, "minimumEfect": 0.1}"#, "unknown key 'minimumEfect'"),
        (#"{"metrics": {"wallTime": {"kind": "time", "tolerance": 1}}}"#, "unknown key 'metrics.wallTime.tolerance'"),
        (#"{"benchmarks": [{"match": "a*", "skip": true}]}"#, "unknown key 'benchmarks[0].skip'"),
        (#"{"metrics": {"wallTime": {"kind": "fast"}}}"#, "wrong type or value"),
        (#"{"alpha": 2}"#, "alpha must be in (0, 1)"),
        (#"{"benchmarks": [{"alpha": 0.01}]}"#, "exactly one of"),
        (#"{"benchmarks": [{"regex": "("}]}"#, "invalid regular expression"),
        ("{ nope", "invalid JSON"),
        ("[1]", "must be a JSON object"),
    ])
    func badThresholds(text: String, fragment: String) throws {
        let folder = try TemporaryFolder()
        let base = try write(GateFixtures.Run(seed: 1), folder, "base.json")
        let thresholds = try write(text: text, folder, "thresholds.json")
        let result = run([base, base, "--thresholds", thresholds])
        #expect(result.status == 2)
        #expect(result.output.contains("thresholds.json: bad thresholds file"))
        #expect(result.output.contains(fragment), "\(result.output)")
    }

    @Test("A valid thresholds file is applied")
    func goodThresholds() throws {
        let folder = try TemporaryFolder()
        let base = try write(GateFixtures.Run(seed: 1), folder, "base.json")
        let worse = try write(GateFixtures.Run(seed: 2, extraStatementsPerFault: 1), folder, "worse.json")
        let thresholds = try write(text: """
            {"alpha": 0.01, "minimumEffect": 0.1,
             "metrics": {"mallocsPerItem": {"relativeTolerance": 0.05}},
             "benchmarks": [{"match": "fault.lazy *", "metrics": {"statementsExecuted": {"relativeTolerance": 1.0}}}]}
            """, folder, "thresholds.json")
        #expect(run([base, worse]).status == 1)
        #expect(run([base, worse, "--thresholds", thresholds]).status == 0)
    }

    @Test("Bad reports and command lines exit 2 naming the problem")
    func badInput() throws {
        let folder = try TemporaryFolder()
        let base = try write(GateFixtures.Run(seed: 1), folder, "base.json")
        let future = try write(text: #"{"schemaVersion": 3}"#, folder, "future.json")
        var other = GateFixtures.report(GateFixtures.Run(seed: 1))
        other.suite = "Other"
        let otherPath = folder.path("other.json")
        try ReportFile.write(other, to: otherPath)
        for (arguments, fragment) in [
            ([base, folder.path("missing.json")], "missing.json"),
            ([base, future], "schemaVersion 3"),
            ([base, otherPath], "suite 'Other'"),
            ([base], "exactly two"),
            ([base, base, "--thresholds"], "--thresholds needs a value"),
            ([base, base, "--thresholds", folder.path("none.json")], "none.json"),
            ([base, base, "--strict"], "--strict"),
        ] {
            let result = run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.output.contains(fragment), "\(result.output)")
        }
    }
}

/// What the CI job relies on: a profile mismatch or disjoint reports are bad
/// input, never a vacuous pass; `--advisory time` prints time regressions
/// without failing while counters and plans still fail.
extension GateCommandTests {
    private func write(_ report: Report, _ folder: TemporaryFolder, _ name: String) throws -> String {
        let path = folder.path(name)
        try ReportFile.write(report, to: path)
        return path
    }

    @Test("Reports of different profiles exit 2 naming both profiles")
    func profileMismatch() throws {
        let folder = try TemporaryFolder()
        var quick = GateFixtures.report(GateFixtures.Run(seed: 1))
        quick.metadata.arguments = ["--profile", "quick", "--iterations", "5"]
        var standard = GateFixtures.report(GateFixtures.Run(seed: 2))
        standard.metadata.arguments = ["--iterations", "5"]
        let result = run([try write(quick, folder, "quick.json"), try write(standard, folder, "standard.json")])
        #expect(result.status == 2)
        #expect(result.output.contains("ran profile 'quick' but"), "\(result.output)")
        #expect(result.output.contains("ran 'standard'"), "\(result.output)")
        var alsoQuick = GateFixtures.report(GateFixtures.Run(seed: 2))
        alsoQuick.metadata.arguments = ["--quiet", "--profile", "quick"]
        #expect(run([folder.path("quick.json"), try write(alsoQuick, folder, "q2.json")]).status == 0)
    }

    @Test("Reports with no benchmark in common exit 2 instead of passing vacuously")
    func nothingInCommon() throws {
        let folder = try TemporaryFolder()
        let base = GateFixtures.report(GateFixtures.Run(seed: 1))
        var renamed = GateFixtures.report(GateFixtures.Run(seed: 2))
        for index in renamed.benchmarks.indices { renamed.benchmarks[index].id += " renamed=1" }
        let result = run([try write(base, folder, "base.json"), try write(renamed, folder, "renamed.json")])
        #expect(result.status == 2)
        #expect(result.output.contains("no benchmark in common"), "\(result.output)")
    }

    @Test("A folder where a report or a thresholds file should be exits 2 saying so")
    func foldersRefused() throws {
        let folder = try TemporaryFolder()
        let base = try write(GateFixtures.report(GateFixtures.Run(seed: 1)), folder, "base.json")
        let directory = folder.path("adir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let asReport = run([directory, base])
        #expect(asReport.status == 2)
        #expect(asReport.output.contains("it is a folder"), "\(asReport.output)")
        let asThresholds = run([base, base, "--thresholds", directory])
        #expect(asThresholds.status == 2)
        #expect(asThresholds.output.contains("cannot read: it is a folder"), "\(asThresholds.output)")
    }

    @Test("Reports whose benchmarks record nothing to check exit 2 instead of passing having compared nothing")
    func nothingToCheck() throws {
        let folder = try TemporaryFolder()
        var bare = GateFixtures.report(GateFixtures.Run(seed: 2))
        for index in bare.benchmarks.indices { (bare.benchmarks[index].metrics, bare.benchmarks[index].queryPlans) = ([:], nil) }
        let base = try write(GateFixtures.report(GateFixtures.Run(seed: 1)), folder, "base.json")
        let result = run([base, try write(bare, folder, "bare.json")])
        #expect(result.status == 2)
        #expect(result.output.contains("gate compared nothing"), "\(result.output)")
    }

    @Test("An improvement beside an advisory regression exits 0 without advising a refresh, which would lock the regression in")
    func noRefreshOverRegression() throws {
        let folder = try TemporaryFolder()
        let base = try write(GateFixtures.report(GateFixtures.Run(seed: 1, extraStatementsPerFault: 1)), folder, "base.json")
        let improved = try write(GateFixtures.report(GateFixtures.Run(seed: 2)), folder, "improved.json")
        #expect(run([base, improved]).status == 3)
        let mixed = try write(GateFixtures.report(GateFixtures.Run(seed: 2, insertSlowdown: 1.3)), folder, "mixed.json")
        let result = run([base, mixed, "--advisory", "time"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("ADVISORY [time]"), "\(result.output)")
        #expect(!result.output.contains("refresh the baseline"), "\(result.output)")
    }

    @Test("--advisory time: a 30% slower insert is printed as ADVISORY and passes; a counter regression still fails")
    func advisoryTimes() throws {
        let folder = try TemporaryFolder()
        let base = try write(GateFixtures.report(GateFixtures.Run(seed: 1)), folder, "base.json")
        let slower = try write(GateFixtures.report(GateFixtures.Run(seed: 2, insertSlowdown: 1.3)), folder, "slower.json")
        #expect(run([base, slower]).status == 1)
        let advised = run([base, slower, "--advisory", "time"])
        #expect(advised.status == 0)
        #expect(advised.output.contains("ADVISORY [time] batch.insert"), "\(advised.output)")
        #expect(advised.output.contains("1 advisory (1 time) not failed"), "\(advised.output)")
        let both = try write(GateFixtures.report(GateFixtures.Run(seed: 2, insertSlowdown: 1.3, extraStatementsPerFault: 1)),
                             folder, "both.json")
        let failing = run([base, both, "--advisory", "time"])
        #expect(failing.status == 1)
        #expect(failing.output.contains("REGRESSION [counter] fault.lazy"), "\(failing.output)")
        #expect(failing.output.contains("gate FAILED: 1 regression(s) (1 counter)"), "\(failing.output)")
        #expect(run([base, slower, "--advisory", "speed"]).status == 2)
    }
}

/// The thresholds file shipped in Benchmarks/ is valid and states the defaults.
@Suite("Shipped thresholds file")
struct ShippedThresholdsTests {
    @Test("Benchmarks/thresholds.json loads and resolves as documented")
    func shipped() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Benchmarks/thresholds.json").path
        let thresholds = try GateThresholds.load(path)
        let mallocs = thresholds.resolve(metric: Metric.mallocsPerItem, unit: "count/item", benchmark: "a rows=1")
        #expect(mallocs.kind == .counter && mallocs.relativeTolerance == 0.02 && mallocs.absoluteTolerance == 0.01)
        let statements = thresholds.resolve(metric: "statementsExecuted", unit: "count", benchmark: "a rows=1")
        #expect(statements.kind == .counter && statements.toleranceText == "exact")
        #expect(thresholds.resolve(metric: "faultsFired", unit: "count", benchmark: "a").kind == .counter)
        #expect(thresholds.resolve(metric: "peakResidentMemory", unit: "bytes", benchmark: "a").kind == .ignore)
        // Page faults depend on the heap's history: reported, never gated.
        for metric in [Metric.pageFaults, Metric.pageFaultsPerItem, Metric.majorPageFaults, Metric.bytesPerItem] {
            #expect(thresholds.resolve(metric: metric, unit: Metric.unit(of: metric).unit, benchmark: "a").kind == .ignore)
        }
        let saveEach = "perObject.saveEach rows=1000"
        let slow = thresholds.scoped(to: "Inserts").resolve(metric: Metric.wallTime, unit: "ns", benchmark: saveEach)
        #expect(slow.kind == .time && slow.minimumEffect == 0.20 && slow.alpha == 0.01)
        let elsewhere = thresholds.scoped(to: "Reference").resolve(metric: Metric.wallTime, unit: "ns", benchmark: saveEach)
        #expect(elsewhere.minimumEffect == GateThresholds.defaultMinimumEffect)
    }
}
