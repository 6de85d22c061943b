import Foundation

/// `faultline-bench export --format google-benchmark|github-action-benchmark
/// REPORT.json [REPORT.json …] --output PATH [--bigger-output PATH]`.
public enum ExportCommand {
    public static let usage = """
        usage: faultline-bench export --format google-benchmark|github-action-benchmark
                                      REPORT.json [REPORT.json ...] --output PATH [--bigger-output PATH]
          --format google-benchmark        Google Benchmark JSON (context + benchmarks) at --output
          --format github-action-benchmark customSmallerIsBetter entries (times, ratios, counters,
                                           bytes) at --output; customBiggerIsBetter entries
                                           (throughput) at --bigger-output, if given
        exit status: 0 written, 2 bad input or unwritable output
        """

    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        var format: String?
        var output: String?
        var biggerOutput: String?
        var files: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--format", "--output", "--bigger-output":
                guard let value = remaining.popFirst() else {
                    write("error: \(argument) needs a value\n\(usage)\n")
                    return 2
                }
                if argument == "--format" { format = value } else if argument == "--output" { output = value } else { biggerOutput = value }
            default:
                if argument.hasPrefix("--") {
                    write("error: unknown argument '\(argument)'\n\(usage)\n")
                    return 2
                }
                files.append(argument)
            }
        }
        guard let format, ["google-benchmark", "github-action-benchmark"].contains(format) else {
            write("error: --format must be google-benchmark or github-action-benchmark\n\(usage)\n")
            return 2
        }
        guard let output else {
            write("error: --output PATH is required\n\(usage)\n")
            return 2
        }
        guard !files.isEmpty else {
            write("error: export needs at least one report file\n\(usage)\n")
            return 2
        }
        do {
            let reports = try files.map { path throws(ReportFileError) in try ReportFile.read(path) }
            if format == "google-benchmark" {
                try writeJSON(BenchmarkExports.googleBenchmark(reports), to: output)
                write("Google Benchmark JSON written to \(output)\n")
            } else {
                let (smaller, bigger) = BenchmarkExports.githubActionBenchmark(reports)
                try writeJSON(smaller.map(dictionary), to: output)
                write("customSmallerIsBetter (\(smaller.count) entries) written to \(output)\n")
                if let biggerOutput {
                    try writeJSON(bigger.map(dictionary), to: biggerOutput)
                    write("customBiggerIsBetter (\(bigger.count) entries) written to \(biggerOutput)\n")
                } else {
                    write("note: \(bigger.count) higher-is-better entries (throughput) not exported; add --bigger-output PATH\n")
                }
            }
        } catch {
            write("error: \(error)\n")
            return 2
        }
        return 0
    }

    private static func dictionary(_ entry: BenchmarkExports.ActionEntry) -> [String: Any] {
        var result: [String: Any] = ["name": entry.name, "unit": entry.unit, "value": entry.value]
        if let range = entry.range { result["range"] = range }
        if let extra = entry.extra { result["extra"] = extra }
        return result
    }

    private static func writeJSON(_ object: Any, to path: String) throws(ReportFileError) {
        let data: Data
        do { data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]) } catch {
            throw .unwritable(path: path, reason: "encoding failed: \(error)")
        }
        try ReportFile.writeAtomically(data, to: path)
    }
}
