import Foundation

/// What a set of A/A runs (the same build, run again) says about gating them
/// against one baseline: the findings noise alone produces, each time-gated
/// line's spread between runs and the minimum effect that spread calls for,
/// and whether the regressions the gate exists for — one more statement per
/// item, an index no longer used, a line made slower — are caught in every
/// run when injected into it.
public struct GateNoiseStudy: Sendable {
    /// One time-gated line's median paired ratio in each run against the
    /// baseline's, as the logarithm of their quotient (0 = unchanged).
    public struct LineSpread: Sendable {
        public var benchmark: String
        public var logEffects: [Double]
        /// The minimum effect the thresholds give the line now.
        public var configuredMinimumEffect: Double
        /// The growth a new run stays under with `confidence` (Student's t
        /// prediction bound on the log effects), never below the configured
        /// minimum; nil with fewer than `minimumRunsToSuggest` runs.
        public var suggestedMinimumEffect: Double?
    }

    /// One kind of injected regression over every run and line it applies to.
    public struct Injection: Sendable {
        public var kind: GateFinding.Kind
        public var description: String
        public var cases = 0
        /// "RUN: benchmark" for each case the gate did not report.
        public var missed: [String] = []
        public var caught: Int { cases - missed.count }
    }

    /// The one-sided confidence of the suggested minimum effects: about one
    /// false finding per thousand line-runs.
    public static let confidence = 0.999

    /// The fewest runs a minimum effect is suggested from. At 99.9 % Student's
    /// t is 318 with 2 runs and 22 with 3, so a bound from so few is noise
    /// times a huge factor — 2 runs suggested 2.9e31, switching time gating
    /// off; from 5 runs (t = 7.2) it narrows towards the spread itself.
    public static let minimumRunsToSuggest = 5

    public let runs: Int
    /// The injected slowdown, 0.3 for 30 %: what a suggested minimum effect
    /// must stay below for time gating to catch it.
    public let slowdown: Double
    /// The kinds the gate prints without failing on (its `--advisory`): their
    /// findings still count, but no regression of theirs is injected.
    public let advisory: Set<GateFinding.Kind>
    /// The A/A findings of every run, each with its run's name.
    public private(set) var findings: [(run: String, finding: GateFinding)] = []
    public private(set) var lines: [LineSpread] = []
    public private(set) var injections: [Injection] = []

    /// Gates each run against `baseline` as it is, then with each injection.
    /// `slowdown` 0.3 makes an injected line's times 30 % longer. A run is
    /// named by `names` (its file, say) or else as "run N" from 1.
    public init(baseline: Report, runs: [Report], names: [String]? = nil, thresholds: GateThresholds, slowdown: Double,
                advisory: Set<GateFinding.Kind> = []) {
        self.runs = runs.count
        self.slowdown = slowdown
        self.advisory = advisory
        let scoped = thresholds.scoped(to: baseline.suite)
        var time = Injection(kind: .time, description: String(format: "a line %g %% slower", slowdown * 100))
        var counter = Injection(kind: .counter, description: "one more statement per item")
        var plan = Injection(kind: .plan, description: "an index dropped")
        var effects: [String: [Double]] = [:]
        let before = baseline.benchmarksByID
        for (offset, run) in runs.enumerated() {
            let name = names.flatMap { offset < $0.count ? $0[offset] : nil } ?? "run \(offset + 1)"
            func gate(_ report: Report) -> RegressionGate {
                RegressionGate(baseline: baseline, current: report, thresholds: thresholds)
            }
            findings += gate(run).regressions.map { (name, $0) }
            let now = run.benchmarksByID
            for (index, line) in run.benchmarks.enumerated() {
                guard let old = before[line.id] else { continue }
                func injected(_ change: (inout BenchmarkResult) -> Void) -> Report {
                    var report = run
                    change(&report.benchmarks[index])
                    report.benchmarks = ReferenceComparison.attach(to: report.benchmarks)
                    return report
                }
                func caught(_ kind: GateFinding.Kind, _ report: Report) -> Bool {
                    gate(report).regressions.contains { $0.kind == kind && $0.benchmark == line.id }
                }
                if !advisory.contains(.time), let effect = Self.logEffect(old, line, before, now) {
                    effects[line.id, default: []].append(effect)
                    time.cases += 1
                    if !caught(.time, injected { $0.scaleTimes(by: 1 + slowdown) }) {
                        time.missed.append("\(name): \(line.id)")
                    }
                }
                if !advisory.contains(.counter), (line.median(Self.statements) ?? 0) > 0, line.items > 0 {
                    counter.cases += 1
                    if !caught(.counter, injected { $0.addStatementPerItem() }) {
                        counter.missed.append("\(name): \(line.id)")
                    }
                }
                if !advisory.contains(.plan), let index = Self.namedIndex(in: old), let plans = line.queryPlans, !plans.isEmpty {
                    plan.cases += 1
                    if !caught(.plan, injected { $0.queryPlans = plans.mapValues { Self.dropping(index, from: $0) } }) {
                        plan.missed.append("\(name): \(line.id)")
                    }
                }
            }
        }
        injections = [time, counter, plan].filter { $0.cases > 0 }
        lines = effects.keys.sorted().compactMap { id -> LineSpread? in
            guard let logEffects = effects[id], let line = before[id] else { return nil }
            let configured = scoped.resolve(metric: Metric.wallTime, unit: "ns", benchmark: line.id).minimumEffect
            return LineSpread(
                benchmark: id, logEffects: logEffects, configuredMinimumEffect: configured,
                suggestedMinimumEffect: logEffects.count < Self.minimumRunsToSuggest
                    ? nil : Self.predictionBound(logEffects).map { Swift.max(configured, expm1($0)) })
        }
    }

    static let statements = "statementsExecuted"

    /// log(median ratio now / median ratio in the baseline) of the line's wall
    /// times to its reference's, or nil for a line without a reference.
    static func logEffect(_ old: BenchmarkResult, _ new: BenchmarkResult,
                          _ before: [String: BenchmarkResult], _ now: [String: BenchmarkResult]) -> Double? {
        guard let name = new.reference else { return nil }
        let oldReference = before[BenchmarkID.reference(old.reference ?? name, parameters: old.parameters)]
        let newReference = now[BenchmarkID.reference(name, parameters: new.parameters)]
        guard let oldRatios = RegressionGate.ratios(old, oldReference, Metric.wallTime),
              let newRatios = RegressionGate.ratios(new, newReference, Metric.wallTime) else { return nil }
        let (was, is_) = (Statistics(oldRatios).median, Statistics(newRatios).median)
        guard was > 0, is_ > 0 else { return nil }
        return log(is_ / was)
    }

    /// mean + t(confidence, K − 1) · sd · √(1 + 1/K): the value a further
    /// draw from the runs' distribution stays under with `confidence`.
    static func predictionBound(_ values: [Double]) -> Double? {
        guard values.count >= 2 else { return nil }
        let statistics = Statistics(values)
        let t = StudentT.quantile(confidence, degreesOfFreedom: values.count - 1)
        return statistics.mean + t * statistics.standardDeviation * (1 + 1 / Double(values.count)).squareRoot()
    }

    /// The first index by name (not the primary key) the line's plans use.
    static func namedIndex(in line: BenchmarkResult) -> String? {
        let usages = (line.queryPlans ?? [:]).keys.sorted().compactMap { line.queryPlans?[$0] }.map(QueryPlan.Usage.init)
        return usages.lazy.flatMap { $0.indexes.sorted() }.first { $0 != "PRIMARY KEY" }
    }

    /// The plan as it reads once `index` is gone: each step that searched or
    /// scanned through it scans its table instead.
    static func dropping(_ index: String, from plan: String) -> String {
        plan.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let words = line.split(separator: " ").map(String.init)
            guard let usingAt = words.firstIndex(of: "USING"), words[usingAt...].contains(index),
                  let verbAt = words.firstIndex(where: { $0.hasSuffix("SEARCH") || $0.hasSuffix("SCAN") }) else { return String(line) }
            var table = words.index(after: verbAt)
            if table < words.count, words[table] == "TABLE" { table += 1 }
            let indent = line.prefix { !$0.isLetter }
            return indent + "SCAN " + (table < words.count ? words[table] : "")
        }.joined(separator: "\n")
    }
}

extension BenchmarkResult {
    /// Every time sample of the line (not its reference's) multiplied by `factor`.
    mutating func scaleTimes(by factor: Double) {
        for name in [Metric.wallTime, Metric.cpuUserTime, Metric.cpuSystemTime] {
            guard let metric = metrics[name] else { continue }
            metrics[name] = MetricResult(unit: metric.unit, direction: metric.direction, samples: metric.samples.map { $0 * factor })
        }
    }

    /// One more executed statement per item in every sample.
    mutating func addStatementPerItem() {
        guard let metric = metrics[GateNoiseStudy.statements] else { return }
        metrics[GateNoiseStudy.statements] = MetricResult(
            unit: metric.unit, direction: metric.direction, samples: metric.samples.map { $0 + Double(items) })
    }
}
