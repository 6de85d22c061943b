/// `faultline-bench gate BASELINE.json CURRENT.json [--thresholds PATH.json]`.
public enum GateCommand {
    public static let usage = """
        usage: faultline-bench gate BASELINE.json CURRENT.json [--thresholds PATH.json]
                                    [--advisory counter|time|plan[,…]]
          gates CURRENT against BASELINE (reports of the same suite and profile):
          deterministic counters exactly or within tolerance, times as ratios to the
          same run's reference (Mann–Whitney U + minimum effect), query plans by index use
          --thresholds PATH  tolerances, alpha, minimum effect and per-benchmark
                             overrides (see Results/README.md)
          --advisory KINDS   regressions of these kinds are printed but do not fail
                             (e.g. `time` on shared CI runners)
        exit status: 0 pass, 1 regression, 2 bad input (reports, thresholds file, or
        reports with no benchmark in common)
        """

    /// Runs the command; returns the exit status.
    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        var files: [String] = []
        var thresholdsPath: String?
        var advisory: Set<GateFinding.Kind> = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--thresholds":
                guard let path = remaining.popFirst() else {
                    write("error: --thresholds needs a file\n\(usage)\n")
                    return 2
                }
                thresholdsPath = path
            case "--advisory":
                guard let list = remaining.popFirst() else {
                    write("error: --advisory needs a list of kinds\n\(usage)\n")
                    return 2
                }
                for name in list.split(separator: ",") {
                    guard let kind = GateFinding.Kind(rawValue: String(name)) else {
                        write("error: --advisory: unknown kind '\(name)' (counter, time or plan)\n")
                        return 2
                    }
                    advisory.insert(kind)
                }
            case "--help", "-h":
                write(usage + "\n")
                return 0
            default:
                if argument.hasPrefix("--") {
                    write("error: unknown argument '\(argument)'\n\(usage)\n")
                    return 2
                }
                files.append(argument)
            }
        }
        guard files.count == 2 else {
            write("error: gate needs exactly two report files, got \(files.count)\n\(usage)\n")
            return 2
        }
        let baseline: Report
        let current: Report
        var thresholds = GateThresholds()
        do {
            baseline = try ReportFile.read(files[0])
            current = try ReportFile.read(files[1])
            if let thresholdsPath { thresholds = try GateThresholds.load(thresholdsPath) }
        } catch {
            write("error: \(error)\n")
            return 2
        }
        guard baseline.suite == current.suite else {
            write("error: \(files[0]) is suite '\(baseline.suite)' but \(files[1]) is suite '\(current.suite)'; "
                  + "gate reports of the same suite\n")
            return 2
        }
        let profiles = [baseline, current].map { try? SuiteProfile(arguments: $0.metadata.arguments) }
        guard profiles[0] == profiles[1] else {
            let names = profiles.map { $0?.rawValue ?? "unreadable" }
            write("error: \(files[0]) ran profile '\(names[0])' but \(files[1]) ran '\(names[1])'; "
                  + "gate reports of the same profile (their sizes differ)\n")
            return 2
        }
        let currentIDs = Set(current.benchmarks.map(\.id))
        guard baseline.benchmarks.contains(where: { currentIDs.contains($0.id) }) else {
            write("error: \(files[0]) and \(files[1]) have no benchmark in common: nothing to gate\n")
            return 2
        }
        write("gate: \(current.suite): \(describe(files[0], baseline)) vs \(describe(files[1], current))\n")
        let gate = RegressionGate(
            baseline: baseline, current: current, thresholds: thresholds,
            baselineName: files[0], currentName: files[1], advisory: advisory)
        write(gate.render() + "\n")
        return gate.passed ? 0 : 1
    }

    private static func describe(_ path: String, _ report: Report) -> String {
        let commit = report.metadata.gitCommit.map { String($0.prefix(10)) } ?? "no commit"
        return "\(path) (\(report.metadata.buildConfiguration), \(commit), \(report.metadata.timestamp))"
    }
}
