import Foundation

/// Why a report file could not be read or written.
public enum ReportFileError: Error, CustomStringConvertible, Equatable {
    case unreadable(path: String, reason: String)
    case malformed(path: String, reason: String)
    case incompatibleVersion(path: String, found: Int?, expected: Int)
    case unwritable(path: String, reason: String)
    /// Readable, but with nothing in it to render, export or compare.
    case empty(path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): cannot read report: \(reason)"
        case .malformed(let path, let reason): return "\(path): not a Faultline report: \(reason)"
        case .incompatibleVersion(let path, let found, let expected):
            let version = found.map(String.init) ?? "none"
            let readable = Report.readableSchemaVersions
            return "\(path): report schemaVersion \(version), this tool reads \(readable.lowerBound) to \(expected)"
        case .unwritable(let path, let reason): return "\(path): cannot write report: \(reason)"
        case .empty(let path): return "\(path): the report has no benchmark"
        }
    }
}

/// Reading and writing reports as JSON files.
public enum ReportFile {
    /// Writes `report` to `path` atomically: a temporary file in the same
    /// folder, renamed over the target, so a failure never leaves half a report.
    public static func write(_ report: Report, to path: String) throws(ReportFileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do { data = try encoder.encode(report) } catch {
            throw .unwritable(path: path, reason: "encoding failed: \(error)")
        }
        try writeAtomically(data, to: path)
    }

    /// The reports a command works on, in order; one without a benchmark is
    /// refused, since a command over it would succeed having done nothing.
    public static func readAll(_ paths: [String]) throws(ReportFileError) -> [Report] {
        try paths.map { path throws(ReportFileError) in
            let report = try read(path)
            guard !report.benchmarks.isEmpty else { throw .empty(path: path) }
            return report
        }
    }

    /// Reads a report of any readable schema version (1 or 2), refusing other
    /// versions with a message naming the file.
    public static func read(_ path: String) throws(ReportFileError) -> Report {
        try parse(try contents(of: path), path: path)
    }

    /// The bytes of the file at `path`, or why there are none in one line
    /// (Foundation's errors name a folder as "error 256").
    static func contents(of path: String) throws(ReportFileError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadable(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw .unreadable(path: path, reason: "it is a folder") }
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Reads a report from `data`; `path` names it in errors.
    public static func parse(_ data: Data, path: String) throws(ReportFileError) -> Report {
        struct VersionProbe: Decodable { var schemaVersion: Int? }
        let probe: VersionProbe
        do { probe = try JSONDecoder().decode(VersionProbe.self, from: data) } catch {
            throw .malformed(path: path, reason: describe(error))
        }
        guard let version = probe.schemaVersion, Report.readableSchemaVersions.contains(version) else {
            throw .incompatibleVersion(path: path, found: probe.schemaVersion, expected: Report.currentSchemaVersion)
        }
        let report: Report
        do { report = try JSONDecoder().decode(Report.self, from: data) } catch {
            throw .malformed(path: path, reason: describe(error))
        }
        // Tables warn about debug builds and the gate refuses to time them by
        // this name; any other value would pass as a debug build unnoticed.
        let configuration = report.metadata.buildConfiguration
        guard RunMetadata.buildConfigurations.contains(configuration) else {
            throw .malformed(path: path, reason: "metadata.buildConfiguration is '\(configuration)', not "
                             + RunMetadata.buildConfigurations.joined(separator: " or "))
        }
        // Reports are read by id (the gate, compare, history): one id twice
        // would be compared with whichever copy a lookup finds.
        var ids = Set<String>()
        for result in report.benchmarks where !ids.insert(result.id).inserted {
            throw .malformed(path: path, reason: "benchmark id '\(result.id)' appears twice")
        }
        for result in report.benchmarks { try checkMetrics(of: result, path: path) }
        return report
    }

    /// Every metric counts or times something, has the unit and direction its
    /// name gives (`Metric.recordedUnit(of:)`, what the writer records), holds at least
    /// one sample, and its statistics summarise its samples (the writer derives
    /// them so): anything else would be gated as measured — a doubled counter
    /// relabelled higher-is-better would pass as an improvement.
    private static func checkMetrics(of result: BenchmarkResult, path: String) throws(ReportFileError) {
        for (name, metric) in result.metrics.sorted(by: { $0.key < $1.key }) {
            let expected = Metric.recordedUnit(of: name)
            guard metric.unit == expected.unit, metric.direction == expected.direction else {
                throw .malformed(path: path, reason: "benchmark '\(result.id)': metric \(name) is in \(metric.unit), "
                                 + "\(metric.direction.rawValue); it is measured in \(expected.unit), \(expected.direction.rawValue)")
            }
            guard !metric.samples.isEmpty else {
                throw .malformed(path: path, reason: "benchmark '\(result.id)': metric \(name) has no sample")
            }
            if let bad = metric.samples.first(where: { !$0.isFinite || $0 < 0 }) {
                throw .malformed(path: path, reason: "benchmark '\(result.id)': metric \(name) has the sample \(bad), "
                                 + "where every metric is a finite count, size or time, never below 0")
            }
            guard Statistics(metric.samples).summarisesAlike(metric.statistics) else {
                throw .malformed(path: path, reason: "benchmark '\(result.id)': the statistics of metric \(name) "
                                 + "are not those of its \(metric.samples.count) sample(s)")
            }
        }
        if let ratio = result.comparison?.wallTimeRatio, !ratio.isFinite || ratio < 0 {
            throw .malformed(path: path, reason: "benchmark '\(result.id)': comparison.wallTimeRatio is \(ratio)")
        }
    }

    /// Fails early, before a long run, when `path` cannot be written.
    public static func checkWritable(_ path: String) throws(ReportFileError) {
        guard !path.isEmpty, !path.hasSuffix("/") else { throw .unwritable(path: path, reason: "no file name") }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .unwritable(path: path, reason: "folder \(folder) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw .unwritable(path: path, reason: "folder \(folder) is not writable")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .unwritable(path: path, reason: "it is a folder")
        }
    }

    /// Writes `data` whole or not at all: into a temporary file renamed over
    /// the target. A symbolic link keeps pointing where it did (its target is
    /// replaced), and something that is not a regular file (`/dev/null`, a
    /// pipe) is written to in place, never replaced by a file.
    static func writeAtomically(_ data: Data, to path: String) throws(ReportFileError) {
        try checkWritable(path)
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        if let type = try? FileManager.default.attributesOfItem(atPath: target.path)[.type] as? FileAttributeType,
           type != .typeRegular {
            return try writeInPlace(data, to: target.path, reportedAs: path)
        }
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
            if rename(temporary.path, target.path) != 0 {
                throw ReportFileError.unwritable(path: path, reason: String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw (error as? ReportFileError) ?? .unwritable(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    private static func writeInPlace(_ data: Data, to path: String, reportedAs name: String) throws(ReportFileError) {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw .unwritable(path: name, reason: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: data) } catch {
            throw .unwritable(path: name, reason: (error as NSError).localizedDescription)
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?:
            return context.underlyingError.map { "invalid JSON (\(($0 as NSError).localizedDescription))" }
                ?? "invalid JSON: \(context.debugDescription)"
        case .keyNotFound(let key, let context)?:
            return "missing key \(path(context.codingPath + [key]))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "wrong type at \(path(context.codingPath)): \(context.debugDescription)"
        default:
            return String(describing: error)
        }
    }

    private static func path(_ keys: [CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}
