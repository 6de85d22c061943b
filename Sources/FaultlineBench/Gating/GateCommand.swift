import FaultlineCommandLine

/// `faultline-bench gate BASELINE.json CURRENT.json [--thresholds PATH.json]`.
public enum GateCommand {
    public static let usage = """
        usage: faultline-bench gate BASELINE.json CURRENT.json [--thresholds PATH.json]
                                    [--advisory counter|time|plan|budget|growth[,…]]
                                    [--format text|markdown|json|github]
          gates CURRENT against BASELINE (reports of the same suite and profile):
          deterministic counters exactly or within tolerance, times as ratios to the
          same run's reference (Mann–Whitney U + minimum effect), query plans by index use
          --thresholds PATH  tolerances, alpha, minimum effect and per-benchmark
                             overrides (see Results/README.md)
          --advisory KINDS   regressions of these kinds are printed but do not fail
                             (e.g. `time` on shared CI runners)
          --format FORMAT    text (default), markdown (a pull-request comment or step
                             summary), json (for bots), github (workflow annotations)
        \(CommandLineHelp.usageLine)
        exit status: 0 pass, 1 regression, 2 bad input (reports, thresholds file, a
        thresholds file naming a benchmark or metric the reports lack, or reports with
        no benchmark in common, or nothing to check in common), 3 passed with no
        regression and counters improved (refresh the baseline)
        """

    /// Runs the command; returns the exit status.
    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        if let status = CommandLineHelp.answer(arguments, usage: usage, write: write) { return status }
        var files: [String] = []
        var thresholdsPath: String?
        var advisory: Set<GateFinding.Kind> = []
        var format = GateOutputFormat.text
        do {
            var scanner = ArgumentScanner(arguments)
            while let argument = scanner.next() {
                switch argument {
                case "--thresholds": thresholdsPath = try scanner.value(for: argument)
                case "--advisory": advisory.formUnion(try scanner.choices(for: argument, kind: "kind", as: GateFinding.Kind.self))
                case "--format": format = try scanner.choice(for: argument, kind: "format", as: GateOutputFormat.self)
                default: files.append(try ArgumentScanner.operand(argument))
                }
            }
            guard files.count == 2 else { throw UsageError("gate needs exactly two report files, got \(files.count)") }
        } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        let pair: ReportPair
        var thresholds = GateThresholds()
        do {
            pair = try ReportPair.read(baseline: files[0], current: files[1])
            if let thresholdsPath { thresholds = try GateThresholds.load(thresholdsPath) }
        } catch {
            return CommandFailure.report(error, write: write)
        }
        let (baseline, current) = (pair.baseline, pair.current)
        if let problem = ReportPair.mismatch(baseline: baseline, named: files[0], current: current, named: files[1]) {
            return CommandFailure.report(problem, write: write)
        }
        if let thresholdsPath {
            do { try thresholds.check(against: [baseline, current], suite: current.suite, path: thresholdsPath) } catch {
                return CommandFailure.report(error, write: write)
            }
        }
        if format == .text {
            write("gate: \(current.suite): \(describe(files[0], baseline)) vs \(describe(files[1], current))\n")
        }
        let gate = RegressionGate(
            baseline: baseline, current: current, thresholds: thresholds,
            baselineName: files[0], currentName: files[1], advisory: advisory)
        guard gate.checksMade > 0 || gate.untestedTimes > 0 else {
            // A gate that compared nothing must not pass a CI run.
            return CommandFailure.report(UsageError(
                "gate compared nothing: \(files[0]) and \(files[1]) have no counter, time, plan, budget or growth "
                    + "to check in common" + (gate.notes.isEmpty ? "" : " (\(gate.notes.joined(separator: "; ")))")), write: write)
        }
        write(gate.render(format, suite: current.suite) + "\n")
        return gate.exitStatus
    }

    private static func describe(_ path: String, _ report: Report) -> String {
        let commit = report.metadata.gitCommit.map { String($0.prefix(10)) } ?? "no commit"
        return "\(path) (\(report.metadata.buildConfiguration), \(commit), \(report.metadata.timestamp))"
    }
}
