import Foundation

/// A suite's committed baselines along `git log`: each commit that changed
/// `Results/baseline-<Suite>.json`, oldest first, with the report it held.
public struct BaselineHistory {
    public struct Entry {
        public var commit: String
        public var date: String
        public var subject: String
        public var report: Report
    }

    public var suite: String
    public var entries: [Entry]

    /// The figures the history follows per line: its ratio to its reference,
    /// then the deterministic counters a change of code moves.
    public static let counters = ["statementsExecuted", "vmSteps", Metric.mallocsPerItem, Metric.fileBytesWrittenPerItem,
                                  Metric.instructionsPerItem]

    /// Reads the history with `git` in `repository`: at most `limit` commits,
    /// the newest ones. A commit whose baseline does not parse is skipped and
    /// named in `skipped`.
    public static func read(suite: String, repository: String, limit: Int) throws(HistoryError) -> (BaselineHistory, skipped: [String]) {
        let path = "Results/baseline-\(suite).json"
        let log = try git(["log", "-n", String(limit), "--format=%H%x09%cs%x09%s", "--", path], in: repository)
        var entries: [Entry] = [], skipped: [String] = []
        for line in log.split(separator: "\n").reversed() {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else { continue }
            let hash = fields[0]
            guard let text = try? git(["show", "\(hash):\(path)"], in: repository),
                  let report = try? ReportFile.parse(Data(text.utf8), path: "\(hash.prefix(10)):\(path)")
            else {
                skipped.append(String(hash.prefix(10)))
                continue
            }
            entries.append(Entry(commit: String(hash.prefix(10)), date: fields[1], subject: fields[2], report: report))
        }
        guard !entries.isEmpty else { throw .noBaselines(path: path, repository: repository) }
        return (BaselineHistory(suite: suite, entries: entries), skipped)
    }

    /// Every line's ids, in the order of the newest report, then the ones it dropped.
    public var lineIDs: [String] {
        var seen = Set<String>(), ids: [String] = []
        for entry in entries.reversed() {
            for result in entry.report.benchmarks where seen.insert(result.id).inserted { ids.append(result.id) }
        }
        return ids
    }

    /// One figure of one line at every commit (nil where the line or figure is absent).
    public func values(of line: String, _ figure: String) -> [Double?] {
        entries.map { entry in
            guard let result = entry.report.benchmarks.first(where: { $0.id == line }) else { return nil }
            return figure == "ratio" ? result.comparison?.wallTimeRatio : result.median(figure)
        }
    }

    /// The commits where a counter of `line` moved beyond the gate's built-in
    /// tolerance for it, in words: `statementsExecuted 101 → 201 at abc1234 (subject)`.
    public func steps(of line: String) -> [String] {
        var steps: [String] = []
        let thresholds = GateThresholds()
        for counter in Self.counters {
            let values = values(of: line, counter)
            let tolerance = thresholds.resolve(metric: counter, unit: Metric.unit(of: counter).unit, benchmark: line)
            for index in values.indices.dropFirst() {
                guard let before = values[index - 1], let after = values[index],
                      abs(after - before) > tolerance.tolerance(around: before) + 1e-9 * max(1, abs(before))
                else { continue }
                let entry = entries[index]
                let subject = entry.subject.count > 72 ? entry.subject.prefix(71) + "…" : entry.subject
                steps.append("\(counter) \(Self.number(before)) → \(Self.number(after)) at \(entry.commit) (\(subject))")
            }
        }
        return steps
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.4g", value)
    }

    static func git(_ arguments: [String], in repository: String) throws(HistoryError) -> String {
        let command = arguments.joined(separator: " ")
        guard let result = ChildProcess.run("git", ["-C", repository] + arguments) else {
            throw .git(command, "git could not be started")
        }
        guard result.status == 0 else { throw .git(command, result.errors) }
        return result.output
    }
}

public enum HistoryError: Error, CustomStringConvertible {
    case git(String, String)
    case noBaselines(path: String, repository: String)

    public var description: String {
        switch self {
        case .git(let command, let message): "git \(command) failed: \(message.trimmingCharacters(in: .whitespacesAndNewlines))"
        case .noBaselines(let path, let repository): "no commit in \(repository) holds a readable \(path)"
        }
    }
}
