import Foundation

extension GateThresholds {
    /// The thresholds for gating `suite`: overrides for other suites dropped.
    public func scoped(to suite: String) -> GateThresholds {
        var scoped = self
        scoped.benchmarks = benchmarks?.filter { $0.suite == nil || $0.suite == suite }
        return scoped
    }

    /// Refuses a file that names what the reports do not have: a metric no
    /// benchmark records, or an override (for this suite) that matches no
    /// benchmark or names a metric none of its benchmarks records. Such a
    /// setting changes nothing, so a misspelling in it would pass unseen.
    func check(against reports: [Report], suite: String, path: String) throws(ThresholdsFileError) {
        let results = reports.flatMap(\.benchmarks)
        let recorded = Set(results.flatMap(\.metrics.keys))
        for name in (metrics ?? [:]).keys.sorted() where !recorded.contains(name) {
            throw ThresholdsFileError(path: path, problem: "metrics.\(name): no benchmark of the reports records it"
                                      + " (they record: \(recorded.sorted().joined(separator: ", ")))")
        }
        for (index, entry) in (benchmarks ?? []).enumerated() where entry.suite == nil || entry.suite == suite {
            let key = "benchmarks[\(index)]"
            let matched = results.filter { entry.matches($0.id) }
            guard !matched.isEmpty else {
                let pattern = entry.match.map { "match '\($0)'" } ?? "regex '\(entry.regex ?? "")'"
                throw ThresholdsFileError(path: path, problem: "\(key) (\(pattern)) matches no benchmark of suite '\(suite)'"
                                          + (entry.suite == nil ? "; give it a \"suite\" if it is for another" : ""))
            }
            let theirs = Set(matched.flatMap(\.metrics.keys))
            for name in (entry.metrics ?? [:]).keys.sorted() where !theirs.contains(name) {
                throw ThresholdsFileError(path: path, problem: "\(key).metrics.\(name): none of the benchmarks it matches records it")
            }
        }
    }
}
