import Foundation

/// How the gate treats a metric.
public enum MetricKind: String, Codable, Sendable {
    /// Deterministic: medians compared exactly or within a stated tolerance.
    case counter
    /// Noisy: per-sample ratios to the same run's reference, Mann–Whitney U
    /// plus a minimum effect size.
    case time
    /// Not gated.
    case ignore
}

/// Settings for one metric; every field is optional so that a benchmark
/// override can change one of them and inherit the rest.
public struct MetricThreshold: Codable, Equatable, Sendable {
    public var kind: MetricKind?
    /// Counters: the change in the worse direction tolerated, in the metric's unit.
    public var absoluteTolerance: Double?
    /// Counters: the change in the worse direction tolerated, as a fraction of the baseline.
    public var relativeTolerance: Double?
    /// Times: the significance level of the Mann–Whitney U test.
    public var alpha: Double?
    /// Times: the smallest growth of the median ratio that fails (0.10 = 10 %).
    public var minimumEffect: Double?

    public init(kind: MetricKind? = nil, absoluteTolerance: Double? = nil, relativeTolerance: Double? = nil,
                alpha: Double? = nil, minimumEffect: Double? = nil) {
        self.kind = kind
        self.absoluteTolerance = absoluteTolerance
        self.relativeTolerance = relativeTolerance
        self.alpha = alpha
        self.minimumEffect = minimumEffect
    }

    /// `self` with the fields `other` sets replaced.
    func overridden(by other: MetricThreshold) -> MetricThreshold {
        MetricThreshold(
            kind: other.kind ?? kind,
            absoluteTolerance: other.absoluteTolerance ?? absoluteTolerance,
            relativeTolerance: other.relativeTolerance ?? relativeTolerance,
            alpha: other.alpha ?? alpha,
            minimumEffect: other.minimumEffect ?? minimumEffect)
    }
}

/// Settings for the benchmarks whose id matches `match` (a glob: `*` any
/// run of characters, `?` one) or `regex` (searched anywhere in the id), in
/// `suite` only when it is given.
public struct BenchmarkOverride: Codable, Equatable, Sendable {
    public var match: String?
    public var regex: String?
    /// One thresholds file serves every suite; an override for one suite's
    /// benchmarks says so, so that gating the others does not find it unmatched.
    public var suite: String?
    /// Applies to every time metric of the matching benchmarks.
    public var alpha: Double?
    public var minimumEffect: Double?
    public var metrics: [String: MetricThreshold]?
    /// A budget: the largest median paired ratio to its reference a matching
    /// line may have, whatever its baseline says. A same-run ratio hardly
    /// depends on the machine, so a budget holds on any runner of the kind.
    public var maximumRatio: Double?
    /// A cost growth bound: the largest exponent of a counter against the
    /// line's size (`CostGrowth`) the matching lines may fit.
    public var maximumGrowth: Double?

    public init(match: String? = nil, regex: String? = nil, suite: String? = nil, alpha: Double? = nil,
                minimumEffect: Double? = nil, metrics: [String: MetricThreshold]? = nil, maximumRatio: Double? = nil,
                maximumGrowth: Double? = nil) {
        self.match = match
        self.regex = regex
        self.suite = suite
        self.alpha = alpha
        self.minimumEffect = minimumEffect
        self.metrics = metrics
        self.maximumRatio = maximumRatio
        self.maximumGrowth = maximumGrowth
    }
}

/// The gate's thresholds file (`Benchmarks/thresholds.json`); see
/// Results/README.md. Later settings win: built-in defaults, then the top
/// level, then `metrics`, then each matching entry of `benchmarks` in order.
public struct GateThresholds: Codable, Equatable, Sendable {
    /// Significance level for time metrics (default 0.01).
    public var alpha: Double?
    /// Minimum growth of the median ratio for a time regression (default 0.10).
    public var minimumEffect: Double?
    public var metrics: [String: MetricThreshold]?
    public var benchmarks: [BenchmarkOverride]?

    public init(alpha: Double? = nil, minimumEffect: Double? = nil,
                metrics: [String: MetricThreshold]? = nil, benchmarks: [BenchmarkOverride]? = nil) {
        self.alpha = alpha
        self.minimumEffect = minimumEffect
        self.metrics = metrics
        self.benchmarks = benchmarks
    }

    /// The budget of `benchmark` (its largest allowed ratio to its reference):
    /// the last matching entry that states one; nil when none does.
    public func budget(for benchmark: String) -> Double? {
        (benchmarks ?? []).last { $0.maximumRatio != nil && $0.matches(benchmark) }?.maximumRatio
    }

    /// The largest cost growth exponent `benchmark`'s line may fit: the last
    /// matching entry that states one; nil when none does.
    public func maximumGrowth(for benchmark: String) -> Double? {
        (benchmarks ?? []).last { $0.maximumGrowth != nil && $0.matches(benchmark) }?.maximumGrowth
    }

    public static let defaultAlpha = 0.01
    public static let defaultMinimumEffect = 0.10
    /// Allocation counts move slightly with the allocator and the runtime's
    /// lazy initialisation, so they get a tolerance; every other counter is exact.
    public static let builtInMetrics: [String: MetricThreshold] = [
        Metric.mallocsPerItem: MetricThreshold(kind: .counter, absoluteTolerance: 0.01, relativeTolerance: 0.02),
        Metric.mallocs: MetricThreshold(kind: .counter, relativeTolerance: 0.02),
        Metric.wallTime: MetricThreshold(kind: .time),
        // Callgrind's counts of one binary on one input move by up to about 1 %
        // on a 1,000-row line of Faultline's (C lines repeat exactly); a diff of
        // two runs puts the difference in the row cache's and the registry's
        // table inserts, on the main thread, cause not yet found.
        Metric.instructions: MetricThreshold(kind: .counter, relativeTolerance: 0.015),
        Metric.instructionsPerItem: MetricThreshold(kind: .counter, relativeTolerance: 0.015),
        // Bytes SQLite moves are as deterministic as its statements.
        Metric.fileBytesWritten: MetricThreshold(kind: .counter),
        Metric.fileBytesWrittenPerItem: MetricThreshold(kind: .counter),
        Metric.fileBytesRead: MetricThreshold(kind: .counter),
        Metric.journalBytesWritten: MetricThreshold(kind: .counter),
        Metric.journalPeakBytes: MetricThreshold(kind: .counter),
    ]

    /// The settings in force for `metric` (with `unit`) of `benchmark`, on
    /// thresholds already `scoped(to:)` the benchmark's suite.
    ///
    /// Metrics with unit `count` or `count/item` are counters unless configured
    /// otherwise, `wallTime` is a time, and everything else is ignored.
    public func resolve(metric: String, unit: String, benchmark: String) -> ResolvedThreshold {
        let unitKind: MetricKind = (unit == "count" || unit == "count/item") ? .counter : .ignore
        var setting = MetricThreshold(
            kind: unitKind, absoluteTolerance: 0, relativeTolerance: 0,
            alpha: alpha ?? Self.defaultAlpha, minimumEffect: minimumEffect ?? Self.defaultMinimumEffect)
        if let builtIn = Self.builtInMetrics[metric] { setting = setting.overridden(by: builtIn) }
        if let configured = metrics?[metric] { setting = setting.overridden(by: configured) }
        for entry in benchmarks ?? [] where entry.matches(benchmark) {
            setting = setting.overridden(by: MetricThreshold(alpha: entry.alpha, minimumEffect: entry.minimumEffect))
            if let configured = entry.metrics?[metric] { setting = setting.overridden(by: configured) }
        }
        return ResolvedThreshold(
            kind: setting.kind ?? unitKind,
            absoluteTolerance: setting.absoluteTolerance ?? 0, relativeTolerance: setting.relativeTolerance ?? 0,
            alpha: setting.alpha ?? Self.defaultAlpha, minimumEffect: setting.minimumEffect ?? Self.defaultMinimumEffect)
    }
}

/// The settings in force for one metric of one benchmark.
public struct ResolvedThreshold: Equatable, Sendable {
    public var kind: MetricKind
    public var absoluteTolerance: Double
    public var relativeTolerance: Double
    public var alpha: Double
    public var minimumEffect: Double

    /// The worse-direction change a counter may make from `baseline`.
    public func tolerance(around baseline: Double) -> Double {
        Swift.max(absoluteTolerance, relativeTolerance * Swift.abs(baseline))
    }

    /// "exact", "±2%", "±0.01" or "±0.01 or ±2%".
    public var toleranceText: String {
        switch (absoluteTolerance > 0, relativeTolerance > 0) {
        case (false, false): return "exact"
        case (true, false): return String(format: "±%g", absoluteTolerance)
        case (false, true): return String(format: "±%g%%", relativeTolerance * 100)
        case (true, true): return String(format: "±%g or ±%g%%, whichever is larger", absoluteTolerance, relativeTolerance * 100)
        }
    }
}

extension BenchmarkOverride {
    func matches(_ id: String) -> Bool {
        if let match, Glob.matches(match, id) { return true }
        if let regex, let expression = try? NSRegularExpression(pattern: regex) {
            return expression.firstMatch(in: id, range: NSRange(id.startIndex..., in: id)) != nil
        }
        return false
    }
}

/// Shell-style globs over whole strings: `*` any run of characters, `?` one.
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let pattern = Array(pattern)
        let text = Array(text)
        var p = 0, t = 0, star = -1, resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1; t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p; resume = t; p += 1
            } else if star >= 0 {
                p = star + 1; resume += 1; t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
