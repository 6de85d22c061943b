import FaultlineCommandLine
import Testing
@testable import FaultlineBench

/// `--help` and `-h` print the command's usage, listing its flags, and exit 0:
/// wherever they stand, even beside a bad argument, and for the suite runner
/// every suite executable shares.
@Suite("--help and -h print the usage and exit 0")
struct HelpTests {
    typealias Command = ([String], (String) -> Void) -> Int32

    static var commands: [(name: String, run: Command, usage: String, flags: [String])] { [
        ("compare", CompareCommand.run, CompareCommand.usage, ["--threshold", "--metric"]),
        ("gate", GateCommand.run, GateCommand.usage, ["--thresholds", "--advisory"]),
        ("report", ReportCommand.run, ReportCommand.usage, ["--markdown", "--html"]),
        ("export", ExportCommand.run, ExportCommand.usage, ["--format", "--output", "--bigger-output"]),
    ] }

    static let commandLines: [[String]] = [
        ["--help"], ["-h"], ["a.json", "b.json", "--help"], ["--bogus", "-h"], ["--metric", "--help"],
    ]

    @Test("Each report command", arguments: commands.indices, commandLines)
    func command(index: Int, arguments: [String]) {
        let command = Self.commands[index]
        var output = ""
        #expect(command.run(arguments) { output += $0 } == 0, "\(command.name) \(arguments)")
        #expect(output == command.usage + "\n", "\(command.name) \(arguments): \(output)")
        for flag in command.flags + ["--help"] { #expect(command.usage.contains(flag), "\(command.name) \(flag)") }
    }

    @Test("The suite runner, before any benchmark runs or any file is written", arguments: commandLines + [
        ["--iterations", "0", "--help"], ["--filter", "matches-nothing", "-h"],
    ])
    func suite(arguments: [String]) {
        final class Runs { var count = 0 }
        let runs = Runs()
        let suite = BenchmarkSuite("Help", benchmarks: [
            Benchmark("counted", items: 1, setUp: { 0 }, measure: { _ in runs.count += 1 }),
        ])
        var output = ""
        #expect(suite.run(arguments: arguments) { output += $0 } == 0)
        #expect(output == RunOptions.usage + "\n")
        #expect(runs.count == 0)
        for flag in ["--profile", "--filter", "--list", "--warmup", "--iterations", "--max-seconds", "--json",
                     "--report-dir", "--quiet", "--help"] {
            #expect(RunOptions.usage.contains(flag), "\(flag)")
        }
    }

    @Test("After --, -h and --help are operands, not requests for help")
    func afterSeparator() {
        #expect(CommandLineHelp.isRequested(["parse", "a == %@", "-h"]))
        #expect(!CommandLineHelp.isRequested(["parse", "a == %@", "--", "-h"]))
        #expect(!CommandLineHelp.isRequested(["--helpful", "-help"]))
    }
}
