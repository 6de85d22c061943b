import Foundation
import Testing
@testable import FaultlineBench

/// `faultline-bench noise`: A/A runs gated against one baseline give their
/// findings, each line's spread and suggested minimum effect, and the catch
/// rate of a slower line, an extra statement per item and a dropped index.
@Suite("Gate noise study")
struct GateNoiseStudyTests {
    typealias Run = GateFixtures.Run

    private func study(_ runs: [Run], baseline: Run = Run(seed: 100, samples: 12, paired: true),
                       thresholds: GateThresholds = GateThresholds()) -> GateNoiseStudy {
        GateNoiseStudy(baseline: GateFixtures.report(baseline), runs: runs.map(GateFixtures.report),
                       thresholds: thresholds, slowdown: 0.3)
    }

    private func quietRuns(_ count: Int, samples: Int = 12) -> [Run] {
        (1...UInt64(count)).map { Run(seed: $0, samples: samples, paired: true, extraLines: 8) }
    }

    @Test("Ten quiet A/A runs: no finding, and every injected regression caught in every run")
    func quietRunsCatchEverything() throws {
        let result = study(quietRuns(10), baseline: Run(seed: 100, samples: 12, paired: true, extraLines: 8))
        #expect(result.runs == 10)
        #expect(result.findings.isEmpty)
        let byKind = Dictionary(uniqueKeysWithValues: result.injections.map { ($0.kind, $0) })
        // batch.insert, fault.lazy and the eight other lines have a reference.
        #expect(byKind[.time]?.cases == 100)
        #expect(byKind[.time]?.missed == [])
        // raw.insert, batch.insert and fault.lazy count statements.
        #expect(byKind[.counter]?.cases == 30)
        #expect(byKind[.counter]?.missed == [])
        // fault.lazy's plan uses ZARTICLE_ZCATEGORY_INDEX.
        #expect(byKind[.plan]?.cases == 10)
        #expect(byKind[.plan]?.missed == [])
        #expect(result.lines.map(\.benchmark).contains("batch.insert rows=1000"))
        #expect(result.lines.allSatisfy { $0.logEffects.count == 10 })
    }

    @Test("Five samples a side: the slower line is missed in every run, and each miss is named")
    func tooFewSamplesMiss() throws {
        let result = study(quietRuns(3, samples: 5), baseline: Run(seed: 100, samples: 5, paired: true, extraLines: 8))
        let time = try #require(result.injections.first { $0.kind == .time })
        #expect(time.caught == 0)
        #expect(time.missed.contains("run 2: batch.insert rows=1000"))
        #expect(result.injections.first { $0.kind == .counter }?.missed == [])
    }

    @Test("A run-to-run drift wider than the minimum effect makes A/A findings; the suggestion covers it")
    func driftCallsForLargerEffect() throws {
        // The batch insert drifts by up to ±18 % from run to run, a whole run
        // at a time: each run's own samples are quiet, so the test is
        // significant and only the minimum effect can tell drift from a change.
        let drifts = [1.0, 1.18, 0.9, 1.12, 0.85, 1.05, 0.95, 1.15, 0.88, 1.02]
        let runs = drifts.enumerated().map { Run(seed: UInt64($0.offset + 1), samples: 12, insertSlowdown: $0.element, paired: true) }
        let result = study(runs)
        #expect(result.findings.contains { $0.finding.benchmark == "batch.insert rows=1000" && $0.finding.kind == .time })
        let line = try #require(result.lines.first { $0.benchmark == "batch.insert rows=1000" })
        let suggested = try #require(line.suggestedMinimumEffect)
        #expect(line.configuredMinimumEffect == 0.10)
        #expect(suggested > 0.18 && suggested < 1.5, "\(suggested)")
        let settled = study(runs, thresholds: GateThresholds(benchmarks: [
            BenchmarkOverride(match: "batch.insert rows=1000", minimumEffect: suggested)]))
        #expect(!settled.findings.contains { $0.finding.benchmark == "batch.insert rows=1000" })
    }

    @Test("Student's t quantiles match the tables", arguments: [
        (0.999, 1, 318.309), (0.999, 9, 4.297), (0.975, 10, 2.228), (0.995, 30, 2.750), (0.999, 200, 3.131),
    ])
    func studentT(probability: Double, degreesOfFreedom: Int, expected: Double) {
        let t = StudentT.quantile(probability, degreesOfFreedom: degreesOfFreedom)
        #expect(abs(t - expected) / expected < 0.001, "\(t)")
    }

    @Test("A prediction bound widens with the runs' spread and with fewer runs")
    func predictionBound() throws {
        let bound = try #require(GateNoiseStudy.predictionBound([0, 0.02, -0.02, 0.01, -0.01]))
        // mean 0, sd 0.0158, t(0.999, 4) = 7.173, √1.2 = 1.095
        #expect(abs(bound - 0.1241) < 0.001, "\(bound)")
        #expect(GateNoiseStudy.predictionBound([0.05]) == nil)
    }

    @Test("Dropping an index turns each step through it into a scan of its table", arguments: [
        ("ZARTICLE_ZCATEGORY_INDEX", "SEARCH t0 USING INDEX ZARTICLE_ZCATEGORY_INDEX (ZCATEGORY=?)", "SCAN t0"),
        ("ZARTICLE_ZVIEWS_INDEX", "SCAN t0 USING INDEX ZARTICLE_ZVIEWS_INDEX", "SCAN t0"),
        ("ZBOOK_ZAUTHOR_INDEX", "SEARCH TABLE ZBOOK USING COVERING INDEX ZBOOK_ZAUTHOR_INDEX (ZAUTHOR=?)", "SCAN ZBOOK"),
        ("ZARTICLE_ZVIEWS_INDEX", "SCAN t0\nUSE TEMP B-TREE FOR ORDER BY", "SCAN t0\nUSE TEMP B-TREE FOR ORDER BY"),
        ("ZARTICLE_ZCATEGORY_INDEX",
         "SEARCH t0 USING INTEGER PRIMARY KEY (rowid=?)\n  SEARCH t1 USING INDEX ZARTICLE_ZCATEGORY_INDEX (ZCATEGORY=?)",
         "SEARCH t0 USING INTEGER PRIMARY KEY (rowid=?)\n  SCAN t1"),
    ])
    func dropping(index: String, plan: String, expected: String) {
        #expect(GateNoiseStudy.dropping(index, from: plan) == expected)
    }

    private func command(_ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = NoiseCommand.run(arguments) { output += $0 }
        return (status, output)
    }

    private func write(_ report: Report, _ folder: TemporaryFolder, _ name: String) throws -> String {
        let path = folder.path(name)
        try ReportFile.write(report, to: path)
        return path
    }

    @Test("The command prints findings, spreads and catch rates, and writes a thresholds file the gate reads")
    func commandSuggests() throws {
        let folder = try TemporaryFolder()
        let base = try write(GateFixtures.report(Run(seed: 100, samples: 12, paired: true)), folder, "base.json")
        let runs = try (1...5).map { try write(GateFixtures.report(Run(seed: UInt64($0), samples: 12, paired: true)), folder, "run-\($0).json") }
        let suggestPath = folder.path("suggested.json")
        let result = command([base] + runs + ["--suggest", suggestPath])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("noise: Test: 5 A/A run(s) gated against \(base)"))
        #expect(result.output.contains("A/A findings: 0 in 5 run(s) (0 counter, 0 time, 0 plan, 0 budget, 0 growth)"))
        #expect(result.output.contains("injected a line 30 % slower: caught 10 of 10"))
        #expect(result.output.contains("injected one more statement per item: caught 15 of 15"))
        #expect(result.output.contains("injected an index dropped: caught 5 of 5"))
        let suggested = try GateThresholds.load(suggestPath)
        #expect(suggested.benchmarks?.map(\.match) == ["batch.insert rows=1000", "fault.lazy rows=1000"])
        #expect(suggested.benchmarks?.allSatisfy { $0.suite == "Test" && ($0.minimumEffect ?? 0) >= 0.10 } == true)
    }

    @Test("Advisory kinds, as the gate runs the main suites: nothing of theirs injected, findings still counted")
    func advisoryKinds() throws {
        let folder = try TemporaryFolder()
        let base = try write(GateFixtures.report(Run(seed: 100, samples: 5, paired: true)), folder, "base.json")
        let run = try write(GateFixtures.report(Run(seed: 1, samples: 5, paired: true)), folder, "run.json")
        let suggestPath = folder.path("suggested.json")
        let result = command([base, run, "--advisory", "time", "--suggest", suggestPath])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("slower"))
        #expect(!result.output.contains("time-gated lines"))
        #expect(result.output.contains("advisory, not injected: time"))
        #expect(result.output.contains("injected one more statement per item: caught 3 of 3"))
        #expect(result.output.contains("not written: \(suggestPath) (no time-gated line)"))
        #expect(!FileManager.default.fileExists(atPath: suggestPath))

        // A counter regression in an A/A run is a finding whether or not its
        // kind is advisory, and --allow-findings counts it.
        var slipped = GateFixtures.report(Run(seed: 1, samples: 5, paired: true))
        let faulting = try #require(slipped.benchmarks.firstIndex { $0.id == "fault.lazy rows=1000" })
        slipped.benchmarks[faulting].addStatementPerItem()
        let slippedPath = try write(slipped, folder, "slipped.json")
        let advised = command([base, slippedPath, "--advisory", "time,counter"])
        #expect(advised.status == 1, "\(advised.output)")
        #expect(advised.output.contains("A/A findings: 1 in 1 run(s) (1 counter,"))
        #expect(advised.output.contains("[counter, advisory] fault.lazy rows=1000"))
        #expect(!advised.output.contains("statement per item: caught"))
        #expect(command([base, slippedPath, "--advisory", "time,counter", "--allow-findings", "1"]).status == 0)
    }

    @Test("Bad input exits 2: one report, a bad flag, another suite, no benchmark in common")
    func badInput() throws {
        let folder = try TemporaryFolder()
        let base = try write(GateFixtures.report(Run(seed: 1)), folder, "base.json")
        #expect(command([base]).status == 2)
        #expect(command([base, base, "--slowdown", "0"]).status == 2)
        var other = GateFixtures.report(Run(seed: 2))
        other.suite = "Other"
        let otherPath = try write(other, folder, "other.json")
        #expect(command([base, otherPath]).output.contains("is suite 'Other'"))
        var disjoint = GateFixtures.report(Run(seed: 2))
        disjoint.benchmarks = disjoint.benchmarks.map { var line = $0; line.id += " x=1"; return line }
        let disjointPath = try write(disjoint, folder, "disjoint.json")
        let result = command([base, disjointPath])
        #expect(result.status == 2)
        #expect(result.output.contains("no benchmark in common"))
    }

    @Test("A missed injection or a finding beyond --allow-findings exits 1")
    func exitStatus() throws {
        let folder = try TemporaryFolder()
        let base = try write(GateFixtures.report(Run(seed: 100, samples: 5, paired: true)), folder, "base.json")
        let run = try write(GateFixtures.report(Run(seed: 1, samples: 5, paired: true)), folder, "run.json")
        let result = command([base, run])
        #expect(result.status == 1)
        #expect(result.output.contains("injected a line 30 % slower: caught 0 of 2; missed:"))
        #expect(result.output.contains("  \(run): batch.insert rows=1000"))
    }
}
