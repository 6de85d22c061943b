import Foundation

/// Why a thresholds file was refused; the gate exits 2 with this message.
public struct ThresholdsFileError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let problem: String
    public var description: String { "\(path): bad thresholds file: \(problem)" }
}

extension GateThresholds {
    /// Reads and validates a thresholds file: unknown keys, values out of
    /// range, an override with neither or both of `match`/`regex`, and regexes
    /// that do not compile are refused with the key path named.
    public static func load(_ path: String) throws(ThresholdsFileError) -> GateThresholds {
        let data: Data
        do { data = try ReportFile.contents(of: path) } catch {
            if case .unreadable(_, let reason) = error { throw ThresholdsFileError(path: path, problem: "cannot read: \(reason)") }
            throw ThresholdsFileError(path: path, problem: "cannot read: \(error)")
        }
        return try parse(data, path: path)
    }

    /// Validates and decodes thresholds JSON; `path` only names the source in errors.
    public static func parse(_ data: Data, path: String) throws(ThresholdsFileError) -> GateThresholds {
        let tree: Any
        do { tree = try JSONSerialization.jsonObject(with: data) } catch {
            throw ThresholdsFileError(path: path, problem: "invalid JSON (\((error as NSError).localizedDescription))")
        }
        if let problem = KeyCheck.topLevel(tree) { throw ThresholdsFileError(path: path, problem: problem) }
        let thresholds: GateThresholds
        do { thresholds = try JSONDecoder().decode(GateThresholds.self, from: data) } catch {
            throw ThresholdsFileError(path: path, problem: "wrong type or value: \(error)")
        }
        if let problem = thresholds.rangeProblem() { throw ThresholdsFileError(path: path, problem: problem) }
        return thresholds
    }

    private func rangeProblem() -> String? {
        var settings: [(String, MetricThreshold)] = [("", MetricThreshold(alpha: alpha, minimumEffect: minimumEffect))]
        settings += (metrics ?? [:]).map { ("metrics.\($0.key).", $0.value) }
        for (index, entry) in (benchmarks ?? []).enumerated() {
            let prefix = "benchmarks[\(index)]."
            if (entry.match == nil) == (entry.regex == nil) {
                return "\(prefix) needs exactly one of \"match\" (glob) or \"regex\""
            }
            if let regex = entry.regex, (try? NSRegularExpression(pattern: regex)) == nil {
                return "\(prefix)regex: invalid regular expression '\(regex)'"
            }
            if let bound = entry.maximumGrowth, !(bound > 0 && bound.isFinite) {
                return "\(prefix)maximumGrowth must be > 0, got \(bound)"
            }
            if let budget = entry.maximumRatio, !(budget > 0 && budget.isFinite) {
                return "\(prefix)maximumRatio must be > 0, got \(budget)"
            }
            settings.append((prefix, MetricThreshold(alpha: entry.alpha, minimumEffect: entry.minimumEffect)))
            settings += (entry.metrics ?? [:]).map { ("\(prefix)metrics.\($0.key).", $0.value) }
        }
        for (prefix, setting) in settings {
            if let alpha = setting.alpha, !(alpha > 0 && alpha < 1) { return "\(prefix)alpha must be in (0, 1), got \(alpha)" }
            for (key, value) in [("minimumEffect", setting.minimumEffect), ("absoluteTolerance", setting.absoluteTolerance),
                                 ("relativeTolerance", setting.relativeTolerance)] {
                if let value, !(value >= 0 && value.isFinite) { return "\(prefix)\(key) must be ≥ 0, got \(value)" }
            }
        }
        return nil
    }
}

/// Finds keys the thresholds schema does not know, which a plain decoder
/// would silently ignore (a misspelt `relativeTolerence` must not pass).
private enum KeyCheck {
    static let top: Set<String> = ["alpha", "minimumEffect", "metrics", "benchmarks"]
    static let metric: Set<String> = ["kind", "absoluteTolerance", "relativeTolerance", "alpha", "minimumEffect"]
    static let override: Set<String> = ["match", "regex", "suite", "alpha", "minimumEffect", "metrics", "maximumRatio", "maximumGrowth"]

    static func topLevel(_ tree: Any) -> String? {
        guard let object = tree as? [String: Any] else { return "the top level must be a JSON object" }
        if let problem = unknown(in: object, allowed: top, at: "") { return problem }
        if let problem = metrics(object["metrics"], at: "metrics") { return problem }
        guard let list = object["benchmarks"] else { return nil }
        guard let entries = list as? [Any] else { return "benchmarks must be an array" }
        for (index, entry) in entries.enumerated() {
            let path = "benchmarks[\(index)]"
            guard let entry = entry as? [String: Any] else { return "\(path) must be an object" }
            if let problem = unknown(in: entry, allowed: override, at: path + ".") { return problem }
            if let problem = metrics(entry["metrics"], at: path + ".metrics") { return problem }
        }
        return nil
    }

    private static func metrics(_ value: Any?, at path: String) -> String? {
        guard let value else { return nil }
        guard let byName = value as? [String: Any] else { return "\(path) must be an object keyed by metric name" }
        for name in byName.keys.sorted() {
            guard let setting = byName[name] as? [String: Any] else { return "\(path).\(name) must be an object" }
            if let problem = unknown(in: setting, allowed: metric, at: "\(path).\(name).") { return problem }
        }
        return nil
    }

    private static func unknown(in object: [String: Any], allowed: Set<String>, at path: String) -> String? {
        guard let key = object.keys.sorted().first(where: { !allowed.contains($0) }) else { return nil }
        return "unknown key '\(path)\(key)' (known here: \(allowed.sorted().joined(separator: ", ")))"
    }
}
