import FaultlineCommandLine
import Foundation

/// A suite executable's entry point: parses the command line, runs the
/// selected benchmarks (and the references they compare with), prints the
/// table and writes the JSON report.
public struct BenchmarkSuite {
    public let name: String
    public let benchmarks: [Benchmark]
    /// The suite's own flags, taken off the command line before `run` (the
    /// Faulting profiler's `--graph`, `--model`…): they decide which lines are
    /// declared, so the child that `--instructions` starts gets them too, or it
    /// would declare the default lines and find none of these.
    public let suiteArguments: [String]

    public init(_ name: String, benchmarks: [Benchmark], suiteArguments: [String] = []) {
        self.name = name
        self.benchmarks = benchmarks
        self.suiteArguments = suiteArguments
    }

    /// Runs the suite as the process's main program and exits with its status:
    /// 0 on success, 1 when a benchmark failed, 2 on a bad command line or an
    /// unwritable report path.
    public func main(arguments: [String] = CommandLine.arguments) -> Never {
        let interactive = isatty(STDOUT_FILENO) != 0
        let status = run(arguments: Array(arguments.dropFirst()), interactive: interactive) { line in
            FileHandle.standardOutput.write(Data(line.utf8))
        }
        exit(status)
    }

    /// Runs the suite, writing human-readable output through `write`.
    ///
    /// Writes the JSON report to `--json PATH` or `Results/<suite>-<UTC>.json`;
    /// in the latter case, or whenever `--report-dir DIR` is given, also the
    /// report folder's files (`ReportFolder`): `latest-<suite>.json`,
    /// `report.md` and `report.html` in `Results` or `DIR`.
    public func run(arguments: [String], interactive: Bool = false, write: (String) -> Void) -> Int32 {
        let options: RunOptions
        do { options = try RunOptions.parse(arguments) } catch {
            return CommandFailure.report(error, usage: RunOptions.usage, write: write)
        }
        if options.help {
            write(RunOptions.usage + "\n")
            return 0
        }
        let selected = selection(options)
        // An empty list or run would read as "nothing regressed"; a filter that
        // selects nothing is a mistake, with --list as much as without.
        if selected.isEmpty {
            let problem = options.filter.map {
                "--filter '\($0.pattern)' matches no benchmark of \(name) (--list without it shows all \(benchmarks.count))"
            } ?? "\(name) declares no benchmark"
            return CommandFailure.report(problem, write: write)
        }
        if options.list {
            for benchmark in selected { write(benchmark.id + "\n") }
            return 0
        }
        // Without --json: Results/<suite>-<UTC>.json plus the report folder's
        // files in Results; with --json: that file only, unless --report-dir.
        let folder = options.reportDirectory ?? (options.jsonPath == nil ? "Results" : nil)
        let path = options.jsonPath ?? defaultReportPath(in: folder ?? "Results")
        do {
            if let folder {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue {
                    throw UsageError("--report-dir \(folder): it is a file, not a folder")
                }
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try ReportFile.checkWritable(ReportFolder.latestPath(suite: name, in: folder))
            }
            try ReportFile.checkWritable(path)
        } catch {
            return CommandFailure.report(error, write: write)
        }
        FileIO.start()
        let metadata = RunMetadata.current()
        if metadata.isDebugBuild, !options.quiet { write(ResultTable.debugWarning + "\n") }

        var results: [BenchmarkResult] = []
        let byID = Dictionary(selected.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (position, benchmark) in selected.enumerated() {
            let runner = BenchmarkRunner(options: options)
            let reference = benchmark.reference.flatMap {
                byID[BenchmarkID.reference($0, parameters: benchmark.parameterDictionary)]
            }
            do {
                results.append(try runner.run(benchmark, pairedWith: reference, suite: name) { iteration, total in
                    guard interactive, !options.quiet else { return }
                    write("\r\u{1B}[K[\(position + 1)/\(selected.count)] \(benchmark.id)  iteration \(iteration)/\(total)")
                })
            } catch {
                if interactive, !options.quiet { write("\r\u{1B}[K") }
                write("error: benchmark '\(benchmark.id)' failed: \(error)\n")
                return 1
            }
        }
        if interactive, !options.quiet { write("\r\u{1B}[K") }
        if options.instructions {
            do { try countInstructions(of: &results, options, write: write) } catch {
                write("error: \(error)\n")
                return 1
            }
        }

        let report = Report(suite: name, metadata: metadata, benchmarks: ReferenceComparison.attach(to: results))
        if !options.quiet { write(ResultTable.render(report) + "\n") }
        var written = [path]
        do {
            try ReportFile.write(report, to: path)
            if let folder {
                let (paths, warnings) = try ReportFolder.update(with: report, folder: folder)
                written += paths
                for warning in warnings { write("warning: \(warning)\n") }
            }
        } catch {
            return CommandFailure.report(error, write: write)
        }
        if !options.quiet {
            write("report written to \(path)\n")
            if written.count > 1 { write("also written: \(written.dropFirst().joined(separator: ", "))\n") }
        }
        return 0
    }

    /// Adds each line's instruction count (`InstructionCount`) and its split
    /// by phase (`InstructionPhase`; reported, not gated: the total is).
    private func countInstructions(of results: inout [BenchmarkResult], _ options: RunOptions,
                                   write: (String) -> Void) throws(InstructionCountError) {
        let counter = try InstructionCount.Counter()
        defer { counter.remove() }
        for index in results.indices {
            if !options.quiet { write("counting instructions: \(results[index].id)\n") }
            let (count, profile) = try counter.count(line: results[index].id, profile: options.profile,
                                                          suiteArguments: suiteArguments)
            let items = Double(max(results[index].items, 1))
            results[index].metrics[Metric.instructions] = MetricResult(unit: "count", direction: .lowerIsBetter, samples: [count])
            results[index].metrics[Metric.instructionsPerItem] = MetricResult(
                unit: "count/item", direction: .lowerIsBetter, samples: [count / items])
            let phases = profile.phases
            for phase in InstructionPhase.allCases {
                results[index].metrics[phase.metric] = MetricResult(
                    unit: InstructionPhase.unit, direction: .lowerIsBetter, samples: [(phases[phase] ?? 0) / items])
            }
        }
    }

    /// The benchmarks the filter selects, plus every reference they name,
    /// in declaration order.
    func selection(_ options: RunOptions) -> [Benchmark] {
        let chosen = benchmarks.filter { options.selects($0.id) }
        let referenceIDs = Set(chosen.compactMap { benchmark in
            benchmark.reference.map { BenchmarkID.reference($0, parameters: benchmark.parameterDictionary) }
        })
        let chosenIDs = Set(chosen.map(\.id))
        return benchmarks.filter { chosenIDs.contains($0.id) || referenceIDs.contains($0.id) }
    }

    private func defaultReportPath(in folder: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return (folder as NSString).appendingPathComponent("\(name)-\(formatter.string(from: Date())).json")
    }
}

extension ReferenceComparison {
    /// Fills in each result's comparison with its reference from the same run.
    static func attach(to results: [BenchmarkResult]) -> [BenchmarkResult] {
        let byID = Dictionary(results.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return results.map { result in
            var result = result
            guard let reference = result.reference else { return result }
            let referenceID = BenchmarkID.reference(reference, parameters: result.parameters)
            guard let base = byID[referenceID] else { return result }
            let mallocs = (result.median(Metric.mallocsPerItem) ?? 0) - (base.median(Metric.mallocsPerItem) ?? 0)
            if let paired = result.pairedWallTimeRatios {
                result.comparison = ReferenceComparison(
                    reference: referenceID, wallTimeRatio: Statistics(paired).median, mallocsPerItemDelta: mallocs,
                    pairedIterations: paired.count)
            } else if let time = result.median(Metric.wallTime), let baseTime = base.median(Metric.wallTime), baseTime > 0 {
                result.comparison = ReferenceComparison(
                    reference: referenceID, wallTimeRatio: time / baseTime, mallocsPerItemDelta: mallocs)
            }
            return result
        }
    }
}
