import FaultlineCommandLine
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
          --output PATH                    where the export is written
          --bigger-output PATH             github-action-benchmark only: the bigger-is-better file
        \(CommandLineHelp.usageLine)
        exit status: 0 written, 2 bad input (an unknown format, a report without
        benchmarks) or unwritable output
        """

    /// The formats `--format` names.
    enum Format: String, CaseIterable {
        case googleBenchmark = "google-benchmark"
        case githubActionBenchmark = "github-action-benchmark"
    }

    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        if let status = CommandLineHelp.answer(arguments, usage: usage, write: write) { return status }
        var format: Format?
        var output: String?
        var biggerOutput: String?
        var files: [String] = []
        let chosen: Format
        let outputPath: String
        do {
            var scanner = ArgumentScanner(arguments)
            while let argument = scanner.next() {
                switch argument {
                case "--format": format = try scanner.choice(for: argument, kind: "format")
                case "--output": output = try scanner.value(for: argument)
                case "--bigger-output": biggerOutput = try scanner.value(for: argument)
                default: files.append(try ArgumentScanner.operand(argument))
                }
            }
            guard let format else {
                throw UsageError("--format is required (\(Format.allCases.map(\.rawValue).joined(separator: " or ")))")
            }
            guard let output else { throw UsageError("--output PATH is required") }
            // Google Benchmark JSON has no second file: a --bigger-output that
            // is never written must not look as if it had been.
            if format == .googleBenchmark, let biggerOutput {
                throw UsageError("--bigger-output '\(biggerOutput)' applies to --format github-action-benchmark only")
            }
            guard !files.isEmpty else { throw UsageError("export needs at least one report file") }
            (chosen, outputPath) = (format, output)
        } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        do {
            // Every output checked before any is written: none is left behind alone.
            for path in [outputPath, biggerOutput].compactMap({ $0 }) { try ReportFile.checkWritable(path) }
            let reports = try ReportFile.readAll(files)
            switch chosen {
            case .googleBenchmark:
                try writeJSON(BenchmarkExports.googleBenchmark(reports), to: outputPath)
                write("Google Benchmark JSON written to \(outputPath)\n")
            case .githubActionBenchmark:
                let (smaller, bigger) = BenchmarkExports.githubActionBenchmark(reports)
                try writeJSON(smaller.map(dictionary), to: outputPath)
                write("customSmallerIsBetter (\(smaller.count) entries) written to \(outputPath)\n")
                if let biggerOutput {
                    try writeJSON(bigger.map(dictionary), to: biggerOutput)
                    write("customBiggerIsBetter (\(bigger.count) entries) written to \(biggerOutput)\n")
                } else {
                    write("note: \(bigger.count) higher-is-better entries (throughput) not exported; add --bigger-output PATH\n")
                }
            }
        } catch {
            return CommandFailure.report(error, write: write)
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
