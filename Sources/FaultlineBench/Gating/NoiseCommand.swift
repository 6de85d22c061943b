import FaultlineCommandLine
import Foundation

/// `faultline-bench noise BASELINE.json RUN.json…`: what the gate does with
/// A/A runs, and what it still catches in them.
public enum NoiseCommand {
    public static let usage = """
        usage: faultline-bench noise BASELINE.json RUN.json… [--thresholds PATH.json]
                                     [--slowdown FRACTION] [--allow-findings N]
                                     [--suggest PATH.json] [--advisory KINDS]
          gates each RUN — the build of BASELINE run again, an A/A run — against
          BASELINE and prints the findings noise alone makes, each time-gated line's
          spread between the runs with the minimum effect that spread calls for, and
          how often the gate catches, injected into each run in turn, a line made
          slower, one more statement per item, and an index dropped
          --thresholds PATH   the gate's thresholds, as `gate` takes them
          --slowdown F        the injected slowdown (default 0.3: a line 30 % slower)
          --allow-findings N  A/A findings tolerated before exit 1 (default 0)
          --suggest PATH      writes a thresholds file whose entries give each
                              time-gated line the suggested minimum effect (none
                              when no line is time-gated); needs at least
                              \(GateNoiseStudy.minimumRunsToSuggest) runs
          --advisory KINDS    kinds the gate only prints (as `gate` takes them):
                              their A/A findings still count, no regression of
                              theirs is injected and, for time, no line is studied
        \(CommandLineHelp.usageLine)
        exit status: 0 at most N A/A findings and every injection caught, 1 otherwise,
        2 bad input (reports of different suites or profiles, thresholds file)
        """

    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        if let status = CommandLineHelp.answer(arguments, usage: usage, write: write) { return status }
        var files: [String] = []
        var thresholdsPath: String?, suggestPath: String?
        var slowdown = 0.3, allowed = 0
        var advisory: Set<GateFinding.Kind> = []
        do {
            var scanner = ArgumentScanner(arguments)
            while let argument = scanner.next() {
                switch argument {
                case "--thresholds": thresholdsPath = try scanner.value(for: argument)
                case "--slowdown": slowdown = try scanner.number(for: argument, minimum: 0, inclusive: false)
                case "--allow-findings": allowed = try scanner.integer(for: argument, atLeast: 0)
                case "--suggest": suggestPath = try scanner.value(for: argument)
                case "--advisory": advisory.formUnion(try scanner.choices(for: argument, kind: "kind", as: GateFinding.Kind.self))
                default: files.append(try ArgumentScanner.operand(argument))
                }
            }
            guard files.count >= 2 else {
                throw UsageError("noise needs a baseline and at least one run, got \(files.count) report file(s)")
            }
            let minimum = GateNoiseStudy.minimumRunsToSuggest
            // With time advisory no line is studied, so nothing would be suggested anyway.
            if suggestPath != nil, !advisory.contains(.time), files.count - 1 < minimum {
                throw UsageError("--suggest needs at least \(minimum) A/A runs, got \(files.count - 1): from fewer, the "
                                 + "99.9 % bound on their spread is too wide to gate with (2 runs would suggest a minimum "
                                 + "effect of about 10^31, switching time gating off)")
            }
        } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        let reports: [Report]
        var thresholds = GateThresholds()
        do {
            // Checked before the study runs, not after it.
            if let suggestPath { try ReportFile.checkWritable(suggestPath) }
            reports = try ReportFile.readAll(files)
            if let thresholdsPath {
                thresholds = try GateThresholds.load(thresholdsPath)
                try thresholds.check(against: reports, suite: reports[0].suite, path: thresholdsPath)
            }
        } catch {
            return CommandFailure.report(error, write: write)
        }
        if let problem = mismatch(reports, files) { return CommandFailure.report(problem, write: write) }
        let study = GateNoiseStudy(baseline: reports[0], runs: Array(reports.dropFirst()), names: Array(files.dropFirst()),
                                   thresholds: thresholds, slowdown: slowdown, advisory: advisory)
        write(render(study, suite: reports[0].suite, baseline: files[0]))
        if let suggestPath, !study.lines.isEmpty {
            do { try suggestion(study, suite: reports[0].suite).write(to: URL(fileURLWithPath: suggestPath)) } catch {
                return CommandFailure.report("cannot write \(suggestPath): \((error as NSError).localizedDescription)",
                                             write: write)
            }
            write("written: \(suggestPath)\n")
        } else if let suggestPath {
            write("not written: \(suggestPath) (no time-gated line)\n")
        }
        let missed = study.injections.contains { !$0.missed.isEmpty }
        return study.findings.count > allowed || missed ? 1 : 0
    }

    /// Why the reports cannot be studied together, or nil.
    private static func mismatch(_ reports: [Report], _ files: [String]) -> String? {
        for (report, file) in zip(reports, files).dropFirst() {
            if let problem = ReportPair.mismatch(baseline: reports[0], named: files[0], current: report, named: file) {
                return problem
            }
            if !report.benchmarks.contains(where: { reports[0].benchmarksByID[$0.id] != nil }) {
                return "\(file) and \(files[0]) have no benchmark in common: nothing to compare"
            }
        }
        return nil
    }

    static func render(_ study: GateNoiseStudy, suite: String, baseline: String) -> String {
        var lines = ["noise: \(suite): \(study.runs) A/A run(s) gated against \(baseline)"]
        let byKind = GateFinding.Kind.allCases.map { kind in
            "\(study.findings.filter { $0.finding.kind == kind }.count) \(kind.rawValue)"
        }
        lines.append("A/A findings: \(study.findings.count) in \(study.runs) run(s) (\(byKind.joined(separator: ", ")))")
        for (run, finding) in study.findings {
            let kind = finding.kind.rawValue + (study.advisory.contains(finding.kind) ? ", advisory" : "")
            lines.append("  \(run): [\(kind)] \(finding.benchmark) — \(finding.subject): \(finding.reason)")
        }
        if !study.advisory.isEmpty {
            let kinds = GateFinding.Kind.allCases.filter(study.advisory.contains).map(\.rawValue)
            lines.append("advisory, not injected: \(kinds.joined(separator: ", "))")
        }
        if !study.lines.isEmpty {
            let confidence = String(format: "%g", GateNoiseStudy.confidence * 100)
            lines.append("time-gated lines: the median paired ratio's change from the baseline, lowest … highest "
                         + "over the runs; minimum effect configured → suggested (a new run stays under it at \(confidence) %)")
            let width = study.lines.map(\.benchmark.count).max() ?? 0
            for line in study.lines {
                let changes = line.logEffects.map { expm1($0) }
                let range = String(format: "%+.1f %% … %+.1f %%", (changes.min() ?? 0) * 100, (changes.max() ?? 0) * 100)
                let suggested = line.suggestedMinimumEffect.map { String(format: "%.0f %%", ($0 * 100).rounded(.up)) }
                    ?? "— (needs \(GateNoiseStudy.minimumRunsToSuggest) runs)"
                lines.append("  " + line.benchmark.padding(toLength: width, withPad: " ", startingAt: 0)
                             + "  \(range)  " + String(format: "%.0f %%", line.configuredMinimumEffect * 100) + " → \(suggested)")
            }
        }
        for line in study.lines {
            guard let suggested = line.suggestedMinimumEffect, suggested >= study.slowdown else { continue }
            lines.append("warning: \(line.benchmark): the suggested minimum effect "
                         + String(format: "%.0f %% is not below the %.0f %% slowdown", (suggested * 100).rounded(.up), study.slowdown * 100)
                         + " the gate should catch: time-gate it with more iterations, or leave it to its counters")
        }
        for injection in study.injections {
            lines.append("injected \(injection.description): caught \(injection.caught) of \(injection.cases)"
                         + (injection.missed.isEmpty ? "" : "; missed:"))
            lines += injection.missed.map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A thresholds file giving each time-gated line the suggested minimum
    /// effect, rounded up to a whole percent.
    static func suggestion(_ study: GateNoiseStudy, suite: String) throws -> Data {
        let entries = study.lines.compactMap { line in
            line.suggestedMinimumEffect.map {
                BenchmarkOverride(match: line.benchmark, suite: suite, minimumEffect: ($0 * 100).rounded(.up) / 100)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(GateThresholds(benchmarks: entries)) + Data("\n".utf8)
    }
}
