// The regression gate: does CURRENT regress against BASELINE?
//
// Design note. Three kinds of metric fail in three different ways, and a
// finding always says which kind failed:
// - counters (unit `count`/`count/item`: statements, rows, VM steps, cache
//   traffic, allocations, faults…) are deterministic, so their medians are
//   compared exactly or within a per-metric tolerance; an extra statement per
//   fault fails on any machine;
// - times are only comparable as ratios to the raw reference measured in the
//   same run (a faster or slower machine moves both), so each side's samples
//   are divided by its own reference's median and the two sets of ratios go
//   through a two-sided Mann–Whitney U test; a regression needs both
//   significance (p below alpha after Holm's correction over every time test
//   of the run) and a minimum effect (median ratio grew by more than
//   `minimumEffect` and than the baseline's own interquartile spread), so
//   noise alone rarely fails. Debug builds are never time-gated;
// - query plans: an index used in the baseline's plan and absent from the
//   current one, a covering index no longer covering, or a table searched
//   before and only scanned now;
// - budgets: a line's median paired ratio to its reference above the
//   `maximumRatio` the thresholds give it fails, with or without a baseline;
// - growth: a line measured at several sizes whose counters grow faster than
//   items^`maximumGrowth` fails, with or without a baseline.
// Benchmarks are matched by id. Anything that cannot be checked (one side
// only, a missing reference, a missing metric or plan) is a note, not a failure.

/// One failed check.
public struct GateFinding: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case counter, time, plan
        /// A line's ratio to its reference above its budget (`maximumRatio`).
        case budget
        /// A line's cost growing faster with its size than its bound (`maximumGrowth`).
        case growth
    }

    public var kind: Kind
    public var benchmark: String
    /// The metric, or the plan's statement label.
    public var subject: String
    public var before: String
    public var after: String
    /// Why it failed, in words.
    public var reason: String
}

/// The outcome of gating one report against a baseline.
public struct RegressionGate: Sendable {
    public private(set) var regressions: [GateFinding] = []
    /// Checks that passed but are worth reading (time checks, budgets).
    public private(set) var passes: [String] = []
    /// Counters better than the baseline beyond their tolerance: the baseline
    /// should be refreshed to lock them in.
    public private(set) var improvements: [GateFinding] = []
    /// What could not be checked, and why.
    public private(set) var notes: [String] = []
    /// Checks made, by kind.
    public internal(set) var checked: [GateFinding.Kind: Int] = [:]
    /// The time tests made, settled together once all are known.
    var timeTests: [TimeTest] = []
    /// Time comparisons made with too few samples to ever be significant:
    /// listed, not counted as checks.
    public internal(set) var untestedTimes = 0

    /// Kinds whose regressions are reported but do not fail the gate.
    public let advisory: Set<GateFinding.Kind>

    /// The regressions that fail the gate.
    public var failing: [GateFinding] { regressions.filter { !advisory.contains($0.kind) } }
    public var passed: Bool { failing.isEmpty }

    /// The command's exit status: 1 on a failing regression, 3 when it passed
    /// with no regression at all and counters improved (refresh the
    /// baseline), else 0. An advisory regression beside an improvement is no
    /// time to refresh: the refresh would lock the regression in.
    public var exitStatus: Int32 { !passed ? 1 : refreshes ? 3 : 0 }

    /// Whether the baseline should be refreshed to lock improvements in.
    var refreshes: Bool { regressions.isEmpty && !improvements.isEmpty }

    /// Checks made of every kind: none means the reports gave the gate nothing to compare.
    public var checksMade: Int { checked.values.reduce(0, +) }

    public init(baseline: Report, current: Report, thresholds: GateThresholds = GateThresholds(),
                baselineName: String = "baseline", currentName: String = "current",
                advisory: Set<GateFinding.Kind> = []) {
        self.advisory = advisory
        let thresholds = thresholds.scoped(to: current.suite)
        let before = baseline.benchmarksByID
        let now = current.benchmarksByID
        let gateTimes = Self.timeGatingRefusal(baseline, current, baselineName, currentName)
        if let refusal = gateTimes { notes.append(refusal) }
        if let before = baseline.metadata.allocatorSettings, let now = current.metadata.allocatorSettings,
           Allocations.effectiveSettings(before) != Allocations.effectiveSettings(now) {
            // Not a refusal: the ratio to the raw line, which hardly allocates, still
            // holds; but the page faults behind system time move with these settings.
            notes.append("allocator settings differ (\(baselineName): \(before); \(currentName): \(now)):"
                         + " time and memory figures may move for that reason alone")
        }
        if gateTimes == nil, let unpaired = Self.pairingDiffers(baseline, current, baselineName, currentName) {
            notes.append(unpaired)
        }
        var unreferenced: [String] = []
        for result in current.benchmarks {
            // A budget needs no baseline: it bounds the same run's ratio.
            if gateTimes == nil { checkBudget(result, thresholds) }
            guard let old = before[result.id] else {
                notes.append("only in \(currentName): \(result.id) (not gated)")
                continue
            }
            checkCounters(old, result, thresholds)
            checkPlans(old, result)
            guard gateTimes == nil else { continue }
            if result.reference == nil {
                unreferenced.append(result.id)
            } else {
                checkTimes(old, result, baseline: before, current: now, thresholds)
            }
        }
        settleTimeTests()
        checkGrowth(current, thresholds)
        for id in baseline.benchmarks.map(\.id) where now[id] == nil {
            notes.append("only in \(baselineName): \(id) (not gated)")
        }
        if !unreferenced.isEmpty {
            notes.append("not time-gated (no reference line to take a ratio to): " + unreferenced.joined(separator: ", "))
        }
    }

    /// A note when one side timed its lines in pairs with their references and
    /// the other did not: the ratios are still comparable, but only the paired
    /// side is free of the drift between a reference's line and the others.
    private static func pairingDiffers(_ baseline: Report, _ current: Report,
                                       _ baselineName: String, _ currentName: String) -> String? {
        func isPaired(_ report: Report) -> Bool {
            report.benchmarks.contains { $0.pairedWallTimeRatios != nil }
        }
        let (before, now) = (isPaired(baseline), isPaired(current))
        guard before != now else { return nil }
        let unpaired = before ? currentName : baselineName
        return "\(unpaired) timed its lines apart from their references (no referenceWallTime): its ratios carry the"
            + " drift between the two runs; re-record it with this version for paired ratios"
    }

    private static func timeGatingRefusal(_ baseline: Report, _ current: Report,
                                          _ baselineName: String, _ currentName: String) -> String? {
        let debug = [(baselineName, baseline), (currentName, current)].filter { $0.1.metadata.isDebugBuild }.map(\.0)
        guard !debug.isEmpty else { return nil }
        return "time gating refused: \(debug.joined(separator: " and ")) \(debug.count == 1 ? "is a debug build" : "are debug builds")"
            + " (debug figures are not comparable; build with -c release); counters and plans were gated"
    }

    mutating func record(_ kind: GateFinding.Kind) { checked[kind, default: 0] += 1 }
    mutating func fail(_ finding: GateFinding) { regressions.append(finding) }
    mutating func pass(_ line: String) { passes.append(line) }
    mutating func note(_ line: String) { notes.append(line) }
    mutating func improve(_ finding: GateFinding) { improvements.append(finding) }

    /// The gate's output: regressions with before, after and why; passing time
    /// checks; notes; a summary line.
    public func render() -> String {
        var lines: [String] = []
        for finding in regressions {
            let label = advisory.contains(finding.kind) ? "ADVISORY" : "REGRESSION"
            lines.append("\(label) [\(finding.kind.rawValue)] \(finding.benchmark) — \(finding.subject): \(finding.reason)")
            lines.append("    before: \(finding.before.replacingOccurrences(of: "\n", with: "\n            "))")
            lines.append("    after:  \(finding.after.replacingOccurrences(of: "\n", with: "\n            "))")
        }
        lines += passes.map { "ok " + $0 }
        lines += improvements.map {
            "note: \($0.benchmark): counter \($0.subject) improved, \($0.before) -> \($0.after)"
                + (refreshes ? "; refresh the baseline to lock it in" : "")
        }
        lines += notes.map { "note: " + $0 }
        lines.append(verdict)
        return lines.joined(separator: "\n")
    }

    /// The one-line verdict: passed or failed, the checks made by kind, the
    /// advisory findings not failed.
    public var verdict: String {
        // Budget checks are counted once a thresholds file states budgets.
        let kinds: [GateFinding.Kind] = [.counter, .time, .plan] + [.budget, .growth].filter { (checked[$0] ?? 0) > 0 }
        let counts = kinds.map { kind in
            "\(checked[kind] ?? 0) \(kind.rawValue) check(s)"
        }.joined(separator: ", ")
            + (untestedTimes == 0 ? "" : ", \(untestedTimes) time comparison(s) with too few samples to fail")
        func byKind(_ findings: [GateFinding]) -> String {
            GateFinding.Kind.allCases.compactMap { kind -> String? in
                let count = findings.filter { $0.kind == kind }.count
                return count == 0 ? nil : "\(count) \(kind.rawValue)"
            }.joined(separator: ", ")
        }
        let advisories = regressions.filter { advisory.contains($0.kind) }
        let advised = advisories.isEmpty ? "" : "; \(advisories.count) advisory (\(byKind(advisories))) not failed"
        let improved = improvements.isEmpty ? ""
            : refreshes ? "; \(improvements.count) counter(s) improved: refresh the baseline"
            : "; \(improvements.count) counter(s) improved (no refresh while a regression stands)"
        if regressions.isEmpty {
            return "gate passed: no regression (\(counts))\(improved)"
        } else if failing.isEmpty {
            return "gate passed: no failing regression (\(counts)\(advised))\(improved)"
        } else {
            return "gate FAILED: \(failing.count) regression(s) (\(byKind(failing))) in \(counts)\(advised)"
        }
    }
}
