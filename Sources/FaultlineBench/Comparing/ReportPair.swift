/// The baseline and current reports `compare` and `gate` read. Two reports
/// with no benchmark in common are refused: comparing them could only find
/// nothing, and "no regression" would then be a lie.
struct ReportPair {
    let baseline: Report
    let current: Report
    let baselineName: String
    let currentName: String
    /// The ids of the benchmarks both reports have, in the current report's order.
    let commonIDs: [String]

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func read(baseline baselineName: String, current currentName: String) throws(Problem) -> ReportPair {
        let reports: [Report]
        do { reports = try ReportFile.readAll([baselineName, currentName]) } catch {
            throw Problem(description: error.description)
        }
        let baselineIDs = Set(reports[0].benchmarks.map(\.id))
        let common = reports[1].benchmarks.map(\.id).filter { baselineIDs.contains($0) }
        guard !common.isEmpty else {
            throw Problem(description: "\(baselineName) and \(currentName) have no benchmark in common: nothing to compare")
        }
        return ReportPair(baseline: reports[0], current: reports[1], baselineName: baselineName,
                          currentName: currentName, commonIDs: common)
    }

    /// The metrics at least one common benchmark has on both sides: the ones a
    /// comparison can say something about.
    var sharedMetrics: Set<String> {
        let before = baseline.benchmarksByID
        let now = current.benchmarksByID
        var metrics: Set<String> = []
        for id in commonIDs {
            guard let old = before[id], let new = now[id] else { continue }
            metrics.formUnion(Set(old.metrics.keys).intersection(new.metrics.keys))
        }
        return metrics
    }
}

extension ReportPair {
    /// Why `current` cannot be gated against `baseline` — another suite, or
    /// another profile (their sizes differ) — or nil when it can.
    static func mismatch(baseline: Report, named baselineName: String, current: Report, named currentName: String) -> String? {
        guard baseline.suite == current.suite else {
            return "\(baselineName) is suite '\(baseline.suite)' but \(currentName) is suite '\(current.suite)'; "
                + "gate reports of the same suite"
        }
        let profiles = [baseline, current].map { try? SuiteProfile(arguments: $0.metadata.arguments) }
        guard profiles[0] == profiles[1] else {
            let names = profiles.map { $0?.rawValue ?? "unreadable" }
            return "\(baselineName) ran profile '\(names[0])' but \(currentName) ran '\(names[1])'; "
                + "gate reports of the same profile (their sizes differ)"
        }
        return nil
    }
}
