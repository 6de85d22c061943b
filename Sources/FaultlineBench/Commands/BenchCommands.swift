import FaultlineCommandLine

/// The benchmark-report commands, as `faultline-bench` and `faultline bench`
/// dispatch, help and complete them.
public enum BenchCommands {
    public static let all: [ToolCommand] = [
        ToolCommand(
            name: "compare", summary: "compares two reports line by line (exit 1 on a regression)",
            usage: CompareCommand.usage, run: CompareCommand.run),
        ToolCommand(
            name: "gate", summary: "gates a report against its baseline: counters, times, plans, budgets, growth",
            usage: GateCommand.usage, run: GateCommand.run),
        ToolCommand(
            name: "noise", summary: "gates A/A runs: what noise fails, each line's spread, what injected regressions are caught",
            usage: NoiseCommand.usage, run: NoiseCommand.run),
        ToolCommand(
            name: "report", summary: "renders reports as Markdown or HTML", usage: ReportCommand.usage, run: ReportCommand.run),
        ToolCommand(
            name: "export", summary: "exports reports for Google Benchmark's compare.py or github-action-benchmark",
            usage: ExportCommand.usage, run: ExportCommand.run),
        ToolCommand(
            name: "history", summary: "a suite's committed baselines along git log, as text or a chart",
            usage: HistoryCommand.usage, run: HistoryCommand.run),
    ]
}
