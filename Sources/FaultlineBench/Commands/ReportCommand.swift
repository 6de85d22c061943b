/// `faultline-bench report [--markdown PATH] [--html PATH] REPORT.json [REPORT.json …]`:
/// several suites' reports rendered into one Markdown and one HTML file
/// (the Markdown goes to standard output when neither path is given).
public enum ReportCommand {
    public static let usage = """
        usage: faultline-bench report [--markdown PATH] [--html PATH] REPORT.json [REPORT.json ...]
          --markdown PATH  write the Markdown summary (pull-request comment) here
          --html PATH      write the self-contained HTML report with SVG charts here
          with neither, the Markdown is printed
        exit status: 0 written, 2 bad input or unwritable output
        """

    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        var markdown: String?
        var html: String?
        var files: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--markdown", "--html":
                guard let value = remaining.popFirst() else {
                    write("error: \(argument) needs a path\n\(usage)\n")
                    return 2
                }
                if argument == "--markdown" { markdown = value } else { html = value }
            default:
                if argument.hasPrefix("--") {
                    write("error: unknown argument '\(argument)'\n\(usage)\n")
                    return 2
                }
                files.append(argument)
            }
        }
        guard !files.isEmpty else {
            write("error: report needs at least one report file\n\(usage)\n")
            return 2
        }
        do {
            let reports = try files.map { path throws(ReportFileError) in try ReportFile.read(path) }
            if markdown == nil, html == nil {
                write(MarkdownReport.render(reports))
                return 0
            }
            for path in try ReportFolder.writeSummaries(reports, markdown: markdown, html: html) {
                write("written: \(path)\n")
            }
        } catch {
            write("error: \(error)\n")
            return 2
        }
        return 0
    }
}
