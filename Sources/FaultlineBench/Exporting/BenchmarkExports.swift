import Foundation

/// Reports converted for CI tools. Medians stand for the value of a run.
///
/// - Google Benchmark JSON (`--benchmark_format=json`): a `context` object and
///   one `benchmarks` entry per benchmark, named `<suite>/<name>/<param>:<value>`,
///   `run_type` "iteration", `real_time` the median wall time, `cpu_time` the
///   median of user + system CPU time per iteration, `time_unit` "ns",
///   `items_per_second` the median throughput, and every other metric's median
///   as a custom counter under its metric name (plus `wallTimeRatio`).
/// - github-action-benchmark: entries `{name, unit, value, range, extra}` named
///   `<suite>: <id> — <metric>`, split by the metric's direction: lower-is-better
///   metrics (times, counters, bytes) and the ratio to the reference (unit "x")
///   go to `customSmallerIsBetter`, higher-is-better ones (throughput) to
///   `customBiggerIsBetter`. `range` is ± the median absolute deviation.
public enum BenchmarkExports {
    public static func googleBenchmark(_ reports: [Report]) -> [String: Any] {
        var families: [String: Int] = [:]
        var entries: [[String: Any]] = []
        for report in reports {
            for result in report.benchmarks {
                let family = families[report.suite + "/" + result.name] ?? families.count
                families[report.suite + "/" + result.name] = family
                let parameters = result.parameters.sorted { $0.key < $1.key }.map { "/\($0.key):\($0.value)" }.joined()
                let name = "\(report.suite)/\(result.name)\(parameters)"
                var entry: [String: Any] = [
                    "name": name, "run_name": name, "run_type": "iteration", "family_index": family,
                    "per_family_instance_index": entries.filter { ($0["family_index"] as? Int) == family }.count,
                    "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": result.iterations,
                    "real_time": result.median(Metric.wallTime) ?? 0, "cpu_time": cpuTime(result), "time_unit": "ns",
                ]
                if let throughput = result.median(Metric.throughput) { entry["items_per_second"] = throughput }
                let skipped: Set<String> = [Metric.wallTime, Metric.cpuUserTime, Metric.cpuSystemTime, Metric.throughput]
                for (metric, value) in result.metrics where !skipped.contains(metric) {
                    entry[metric] = value.statistics.median
                }
                if let comparison = result.comparison { entry["wallTimeRatio"] = comparison.wallTimeRatio }
                entries.append(entry)
            }
        }
        let first = reports.first?.metadata
        let context: [String: Any] = [
            "date": first?.timestamp ?? "", "executable": "faultline-bench",
            "num_cpus": first?.coreCount ?? 0, "mhz_per_cpu": 0, "cpu_scaling_enabled": false,
            "caches": [Any](), "load_avg": [Any](), "library_build_type": first?.buildConfiguration ?? "unknown",
            "json_schema_version": 1, "faultline_suites": reports.map(\.suite),
            "cpu_model": first?.cpuModel ?? "", "git_commit": first?.gitCommit ?? "",
            "sqlite_version": first?.sqliteVersion ?? "", "swift_version": first?.swiftVersion ?? "",
        ]
        return ["context": context, "benchmarks": entries]
    }

    /// One github-action-benchmark entry.
    public struct ActionEntry: Codable, Equatable, Sendable {
        public var name: String
        public var unit: String
        public var value: Double
        public var range: String?
        public var extra: String?
    }

    /// The `customSmallerIsBetter` and `customBiggerIsBetter` entries.
    public static func githubActionBenchmark(_ reports: [Report]) -> (smaller: [ActionEntry], bigger: [ActionEntry]) {
        var smaller: [ActionEntry] = []
        var bigger: [ActionEntry] = []
        for report in reports {
            for result in report.benchmarks {
                let extra = "suite: \(report.suite)\niterations: \(result.iterations)\nbuild: "
                    + "\(report.metadata.buildConfiguration)\ncommit: \(report.metadata.gitCommit ?? "unknown")"
                for metric in result.metrics.keys.sorted() {
                    guard let value = result.metrics[metric] else { continue }
                    let entry = ActionEntry(
                        name: "\(report.suite): \(result.id) — \(metric)", unit: value.unit,
                        value: value.statistics.median,
                        range: String(format: "± %g", value.statistics.medianAbsoluteDeviation), extra: extra)
                    if value.direction == .higherIsBetter { bigger.append(entry) } else { smaller.append(entry) }
                }
                if let comparison = result.comparison {
                    smaller.append(ActionEntry(
                        name: "\(report.suite): \(result.id) — wallTimeRatio", unit: "x", value: comparison.wallTimeRatio,
                        range: nil, extra: extra + "\nreference: \(comparison.reference)"))
                }
            }
        }
        return (smaller, bigger)
    }

    private static func cpuTime(_ result: BenchmarkResult) -> Double {
        let user = result.metrics[Metric.cpuUserTime]?.samples ?? []
        let system = result.metrics[Metric.cpuSystemTime]?.samples ?? []
        guard !user.isEmpty, user.count == system.count else { return result.median(Metric.cpuUserTime) ?? 0 }
        return Statistics(zip(user, system).map { $0 + $1 }).median
    }
}
