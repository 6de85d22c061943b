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
