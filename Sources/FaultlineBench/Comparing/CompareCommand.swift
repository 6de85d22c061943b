import FaultlineCommandLine

/// `faultline-bench compare BASELINE.json CURRENT.json [--threshold PCT] [--metric NAME …]`.
public enum CompareCommand {
    public static let usage = """
        usage: faultline-bench compare BASELINE.json CURRENT.json [--threshold PCT] [--metric NAME ...]
          --threshold PCT  tolerated change in the worse direction, in percent (default 5);
                           from a baseline of 0 no percentage tolerates a change, which
                           reads "from zero" and regresses in the worse direction
          --metric NAME    a metric to compare; repeatable or comma-separated (default wallTime);
                           each must be one that a benchmark of both reports has
        \(CommandLineHelp.usageLine)
        exit status: 0 no regression, 1 regression, 2 unreadable or incompatible input, an
        unknown metric, or reports with no benchmark in common
        """

    /// Runs the command; returns the exit status.
    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        if let status = CommandLineHelp.answer(arguments, usage: usage, write: write) { return status }
        var files: [String] = []
        var threshold = 5.0
        var metrics: [String] = []
        do {
            var scanner = ArgumentScanner(arguments)
            while let argument = scanner.next() {
                switch argument {
                case "--threshold": threshold = try scanner.number(for: argument, minimum: 0)
                case "--metric": metrics += try scanner.list(for: argument)
                default: files.append(try ArgumentScanner.operand(argument))
                }
            }
            guard files.count == 2 else { throw UsageError("compare needs exactly two report files, got \(files.count)") }
        } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        let pair: ReportPair
        do { pair = try ReportPair.read(baseline: files[0], current: files[1]) } catch {
            return CommandFailure.report(error, write: write)
        }
        // Lines of two suites can share a name (raw.fetch) and measure different work.
        guard pair.baseline.suite == pair.current.suite else {
            return CommandFailure.report(UsageError(
                "\(files[0]) is suite '\(pair.baseline.suite)' but \(files[1]) is suite '\(pair.current.suite)'; "
                    + "compare reports of the same suite"), write: write)
        }
        let chosen = metrics.isEmpty ? [Metric.wallTime] : metrics
        let shared = pair.sharedMetrics
        // A misspelt metric would be "missing on one side" for every benchmark
        // and the verdict "no regression": refuse it instead.
        if let unknown = chosen.first(where: { !shared.contains($0) }) {
            return CommandFailure.report(
                UsageError.unknownValue(unknown, for: "--metric", kind: "metric", allowed: shared.sorted()), write: write)
        }
        let comparison = ReportComparison(
            baseline: pair.baseline, current: pair.current, thresholdPercent: threshold, metrics: chosen)
        write(comparison.render() + "\n")
        return comparison.hasRegression ? 1 : 0
    }
}
