import Testing
@testable import FaultlineBench

/// The gate passes two runs of the same build and fails each injected
/// regression with the right kind and reason.
@Suite("Regression gate")
struct RegressionGateTests {
    typealias Run = GateFixtures.Run

    private func gate(_ baseline: Run, _ current: Run, _ thresholds: GateThresholds = GateThresholds()) -> RegressionGate {
        RegressionGate(baseline: GateFixtures.report(baseline), current: GateFixtures.report(current), thresholds: thresholds)
    }

    @Test("A/A: two runs of the same build (different seeds, 3% noise) pass", arguments: [UInt64(2), 3, 4, 5, 6])
    func aa(seed: UInt64) {
        let result = gate(Run(seed: 1), Run(seed: seed))
        #expect(result.passed, "\(result.render())")
        #expect(result.checked[.time] == 2)
        #expect(result.checked[.plan] == 1)
        #expect((result.checked[.counter] ?? 0) >= 5)
    }

    @Test("A/A on a 40% faster machine passes: times are gated as ratios to the reference")
    func fasterMachine() {
        let result = gate(Run(seed: 1), Run(seed: 9, machineSpeed: 0.6))
        #expect(result.passed, "\(result.render())")
    }

    @Test("One extra statement per fault fails as a counter regression with before and after")
    func extraStatement() throws {
        let result = gate(Run(seed: 1), Run(seed: 2, extraStatementsPerFault: 1))
        let finding = try #require(result.regressions.first)
        #expect(result.regressions.count == 1)
        #expect(finding.kind == .counter)
        #expect(finding.benchmark == "fault.lazy rows=1000")
        #expect(finding.subject == "statementsExecuted")
        #expect(finding.before == "101 count")
        #expect(finding.after == "201 count")
        #expect(finding.reason.contains("grew by 100 count"))
        #expect(finding.reason.contains("exact"))
    }

    @Test("A counter growing from a zero baseline fails beyond its absolute tolerance and reads 'from zero', not '+inf%'")
    func zeroBaseline() throws {
        var baseline = GateFixtures.report(Run(seed: 1))
        let index = try #require(baseline.benchmarks.firstIndex { $0.name == "fault.lazy" })
        baseline.benchmarks[index].metrics["rowsReturned"] = MetricResult(unit: "count", direction: .lowerIsBetter, samples: [0, 0])
        let current = GateFixtures.report(Run(seed: 2))
        let result = RegressionGate(baseline: baseline, current: current)
        let finding = try #require(result.regressions.first)
        #expect(result.regressions.count == 1)
        #expect(finding.subject == "rowsReturned" && finding.before == "0 count" && finding.after == "100 count")
        #expect(finding.reason == "deterministic counter grew by 100 count (from zero) per iteration; tolerance exact")
        for format in GateOutputFormat.allCases {
            #expect(!result.render(format, suite: "Test").contains("inf"), "\(format)")
        }
        // Back to zero is an improvement of -100%, and a tolerance of 100 absorbs the growth.
        let improved = RegressionGate(baseline: current, current: baseline)
        #expect(improved.improvements.first?.reason == "improved by 100 count (-100.00%) per iteration")
        let tolerant = GateThresholds(metrics: ["rowsReturned": MetricThreshold(absoluteTolerance: 100)])
        #expect(RegressionGate(baseline: baseline, current: current, thresholds: tolerant).passed)
    }

    @Test("A dropped index fails as a plan regression: index gone and SEARCH became SCAN")
    func droppedIndex() throws {
        let result = gate(Run(seed: 1), Run(seed: 2, categoryPlan: "SCAN ZARTICLE"))
        let finding = try #require(result.regressions.first)
        #expect(result.regressions.count == 1)
        #expect(finding.kind == .plan)
        #expect(finding.reason.contains("index ZARTICLE_ZCATEGORY_INDEX is no longer used"))
        #expect(finding.reason.contains("SEARCH ZARTICLE became SCAN ZARTICLE"))
        #expect(finding.after == "SCAN ZARTICLE")
    }

    @Test("A covering index that stops covering is a plan regression; a new index is not")
    func coveringIndex() {
        let covering = "SEARCH ZARTICLE USING COVERING INDEX ZARTICLE_ZCATEGORY_INDEX (ZCATEGORY=?)"
        let lost = gate(Run(seed: 1, categoryPlan: covering), Run(seed: 2))
        #expect(lost.regressions.map(\.reason) == ["index ZARTICLE_ZCATEGORY_INDEX is no longer a covering index"])
        #expect(gate(Run(seed: 1), Run(seed: 2, categoryPlan: covering)).passed)
    }

    @Test("A 30% slower insert loop fails as a time regression, naming the test and the effect")
    func slowerLine() throws {
        let result = gate(Run(seed: 1), Run(seed: 2, insertSlowdown: 1.3))
        let finding = try #require(result.regressions.first)
        #expect(result.regressions.count == 1)
        #expect(finding.kind == .time)
        #expect(finding.benchmark == "batch.insert rows=1000")
        #expect(finding.subject == "wallTime ratio to raw.insert")
        #expect(finding.reason.contains("Mann–Whitney U p = "))
        #expect(finding.reason.contains("minimum effect 10%"))
        // 2.5x with 3% noise before; 2.5 × 1.3 = 3.25x after.
        let before = try #require(Double(finding.before.prefix { $0 != "x" }))
        let after = try #require(Double(finding.after.prefix { $0 != "x" }))
        #expect((2.35...2.65).contains(before))
        #expect((3.05...3.45).contains(after))
    }

    @Test("Paired ratios: a reference line timed in a slow moment is no false regression; a slower line still fails")
    func pairedReference() throws {
        // The baseline's own raw line ran while the machine was twice as slow.
        let slowReference = Run(seed: 1, referenceLineSlowdown: 2)
        let unpaired = gate(slowReference, Run(seed: 2))
        #expect(unpaired.regressions.map(\.benchmark).contains("batch.insert rows=1000"))
        var baseline = slowReference
        baseline.paired = true
        let paired = gate(baseline, Run(seed: 2, paired: true))
        #expect(paired.passed, "\(paired.render())")
        #expect(paired.checked[.time] == 2)
        #expect(!paired.notes.contains { $0.contains("apart from their references") })
        let mixed = gate(Run(seed: 1), Run(seed: 2, paired: true))
        #expect(mixed.notes.filter { $0.hasPrefix("baseline timed its lines apart from their references") }.count == 1)
        let slower = gate(baseline, Run(seed: 2, insertSlowdown: 1.3, paired: true))
        let finding = try #require(slower.regressions.first)
        #expect(slower.regressions.count == 1)
        #expect(finding.kind == .time && finding.benchmark == "batch.insert rows=1000")
    }

    @Test("Small noise passes: 3% slower, allocator jitter of 1% on mallocsPerItem", arguments: [UInt64(2), 3, 4])
    func smallNoise(seed: UInt64) {
        let result = gate(Run(seed: 1), Run(seed: seed, insertSlowdown: 1.03, mallocNoise: 0.01))
        #expect(result.passed, "\(result.render())")
    }

    @Test("A large but insignificant slowdown with 3 samples is noted, not failed")
    func tooFewSamples() {
        let result = gate(Run(seed: 1, samples: 3), Run(seed: 2, samples: 3, insertSlowdown: 1.3))
        #expect(result.passed)
        #expect(result.notes.contains { $0.contains("too few samples") })
    }

    @Test("A debug build on either side: times not gated (with a message), counters still gated")
    func debugBuild() throws {
        let result = gate(Run(seed: 1), Run(seed: 2, insertSlowdown: 2, extraStatementsPerFault: 1, buildConfiguration: "debug"))
        #expect(result.regressions.map(\.kind) == [.counter])
        #expect(result.checked[.time] == nil)
        #expect(result.notes.contains { $0.contains("time gating refused") && $0.contains("debug build") })
    }

    @Test("Different allocator settings are noted, once, and gate nothing by themselves")
    func allocatorSettings() {
        let tuned = Run(seed: 2, allocatorSettings: "dirty_decay_ms:-1 muzzy_decay_ms:-1 (MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1)")
        let result = gate(Run(seed: 1), tuned)
        #expect(result.passed)
        #expect(result.notes.filter { $0.contains("allocator settings differ") && $0.contains("MALLOC_CONF=dirty_decay_ms:-1") }.count == 1)
        #expect(!gate(Run(seed: 1), Run(seed: 2)).notes.contains { $0.contains("allocator settings") })
        // The same values asked for through MALLOC_CONF are the same settings.
        let spelledOut = Run(seed: 2, allocatorSettings: "dirty_decay_ms:10000 muzzy_decay_ms:0 (MALLOC_CONF=dirty_decay_ms:10000)")
        #expect(!gate(Run(seed: 1), spelledOut).notes.contains { $0.contains("allocator settings") })
        // A report from before the field existed has nothing to compare.
        #expect(!gate(Run(seed: 1, allocatorSettings: nil), tuned).notes.contains { $0.contains("allocator settings") })
    }

    @Test("Reference lines are listed as not time-gated")
    func unreferenced() {
        let result = gate(Run(seed: 1), Run(seed: 2))
        #expect(result.notes.contains { $0.contains("not time-gated") && $0.contains("raw.insert rows=1000") })
    }

    @Test("Thresholds: a per-benchmark tolerance lets the extra statements pass; a larger minimum effect the slowdown")
    func overrides() {
        let counterTolerance = GateThresholds(benchmarks: [
            BenchmarkOverride(match: "fault.*", metrics: ["statementsExecuted": MetricThreshold(absoluteTolerance: 100)]),
        ])
        #expect(gate(Run(seed: 1), Run(seed: 2, extraStatementsPerFault: 1), counterTolerance).passed)
        let lenient = GateThresholds(benchmarks: [BenchmarkOverride(regex: "^batch\\.", minimumEffect: 0.5)])
        #expect(gate(Run(seed: 1), Run(seed: 2, insertSlowdown: 1.3), lenient).passed)
        let ignored = GateThresholds(metrics: ["statementsExecuted": MetricThreshold(kind: .ignore)])
        #expect(gate(Run(seed: 1), Run(seed: 2, extraStatementsPerFault: 1), ignored).passed)
    }
}
