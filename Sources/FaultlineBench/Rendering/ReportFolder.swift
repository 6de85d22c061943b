import Foundation

/// The files a suite run leaves in its report folder (`Results` by default):
///
/// - `latest-<suite>.json`: a copy of this run's report, one per suite, so
///   that suites run in a row do not overwrite one another;
/// - `report.md` and `report.html`: every `latest-*.json` in the folder
///   rendered together, so after running all suites they cover all of them.
public enum ReportFolder {
    /// `latest-<suite>.json` in `folder`.
    public static func latestPath(suite: String, in folder: String) -> String {
        (folder as NSString).appendingPathComponent("latest-\(fileSafe(suite)).json")
    }

    /// Writes the latest copy of `report`, then re-renders the summaries from
    /// every latest report in the folder. Returns the paths written and
    /// warnings about latest files that could not be read (left out).
    public static func update(with report: Report, folder: String)
        throws(ReportFileError) -> (written: [String], warnings: [String])
    {
        let latest = latestPath(suite: report.suite, in: folder)
        try ReportFile.write(report, to: latest)
        let (reports, warnings) = latestReports(in: folder)
        let written = try writeSummaries(reports, markdown: path("report.md", folder), html: path("report.html", folder))
        return ([latest] + written, warnings)
    }

    /// Every readable `latest-*.json` in `folder`, by file name.
    public static func latestReports(in folder: String) -> (reports: [Report], warnings: [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var reports: [Report] = []
        var warnings: [String] = []
        for name in names.sorted() where name.hasPrefix("latest-") && name.hasSuffix(".json") {
            do { reports.append(try ReportFile.read(path(name, folder))) } catch {
                warnings.append("left out of the summary: \(error)")
            }
        }
        return (reports, warnings)
    }

    /// Renders `reports` to the Markdown and HTML paths given (atomically).
    public static func writeSummaries(_ reports: [Report], markdown: String?, html: String?,
                                      histories: [String: BaselineHistory?] = [:])
        throws(ReportFileError) -> [String]
    {
        // Both checked before either is written: neither is left behind alone.
        for path in [markdown, html].compactMap({ $0 }) { try ReportFile.checkWritable(path) }
        var written: [String] = []
        if let markdown {
            try ReportFile.writeAtomically(Data(MarkdownReport.render(reports).utf8), to: markdown)
            written.append(markdown)
        }
        if let html {
            try ReportFile.writeAtomically(Data(HTMLReport.render(reports, histories: histories).utf8), to: html)
            written.append(html)
        }
        return written
    }

    private static func path(_ name: String, _ folder: String) -> String {
        (folder as NSString).appendingPathComponent(name)
    }

    private static func fileSafe(_ suite: String) -> String {
        String(suite.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }
}
