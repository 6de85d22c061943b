import FaultlineCommandLine

/// `faultline-bench report [--markdown PATH] [--html PATH] REPORT.json [REPORT.json …]`:
/// several suites' reports rendered into one Markdown and one HTML file
/// (the Markdown goes to standard output when neither path is given).
public enum ReportCommand {
    public static let usage = """
        usage: faultline-bench report [--markdown PATH] [--html PATH [--history DIR]] REPORT.json [REPORT.json ...]
          --markdown PATH  write the Markdown summary (pull-request comment) here
          --html PATH      write the self-contained HTML report with SVG charts here
          --history DIR    in the HTML report, also chart each suite's committed baselines
                           (Results/baseline-SUITE.json) along git log in the checkout DIR:
                           each line's ratio and counters over the last 50 commits that changed them
          with neither, the Markdown is printed
        \(CommandLineHelp.usageLine)
        exit status: 0 written, 2 bad input (a report without benchmarks) or unwritable output
        """

    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        if let status = CommandLineHelp.answer(arguments, usage: usage, write: write) { return status }
        var markdown: String?
        var html: String?
        var history: String?
        var files: [String] = []
        do {
            var scanner = ArgumentScanner(arguments)
            while let argument = scanner.next() {
                switch argument {
                case "--markdown": markdown = try scanner.value(for: argument)
                case "--html": html = try scanner.value(for: argument)
                case "--history": history = try scanner.value(for: argument)
                default: files.append(try ArgumentScanner.operand(argument))
                }
            }
            guard !files.isEmpty else { throw UsageError("report needs at least one report file") }
            guard history == nil || html != nil else { throw UsageError("--history charts into the HTML report: give --html PATH") }
        } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        do {
            let reports = try ReportFile.readAll(files)
            if markdown == nil, html == nil {
                write(MarkdownReport.render(reports))
                return 0
            }
            var histories: [String: BaselineHistory?] = [:]
            if let history {
                for suite in Set(reports.map(\.suite)) {
                    histories[suite] = try baselines(of: suite, in: history)
                }
            }
            for path in try ReportFolder.writeSummaries(reports, markdown: markdown, html: html, histories: histories) {
                write("written: \(path)\n")
            }
        } catch {
            return CommandFailure.report(error, write: write)
        }
        return 0
    }

    /// A suite's committed baselines, or nil when no commit holds one (a
    /// suite without baselines is a fact for the page, not an error).
    private static func baselines(of suite: String, in repository: String) throws(HistoryError) -> BaselineHistory? {
        do {
            return try BaselineHistory.read(suite: suite, repository: repository, limit: 50).0
        } catch {
            if case .noBaselines = error { return nil }
            throw error
        }
    }
}
