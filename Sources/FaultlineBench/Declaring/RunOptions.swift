import FaultlineCommandLine
import Foundation

/// A suite executable's command-line options.
public struct RunOptions {
    public var filter: NSRegularExpression?
    public var list = false
    public var warmupIterations = 1
    public var iterations = 10
    /// Per-benchmark budget: no new iteration starts once this has elapsed
    /// (at least one measured iteration always runs). Warm-ups have a budget
    /// of the same length of their own (at least one runs when `--warmup` is
    /// not 0).
    public var maxSeconds = 10.0
    /// The largest `--max-seconds`.
    static let longestBudget = 1e9
    public var jsonPath: String?
    /// Where `latest-<suite>.json`, `report.md` and `report.html` go: by
    /// default `Results` when no `--json` is given, and nowhere when one is.
    public var reportDirectory: String?
    public var quiet = false
    /// Count each line's instructions under callgrind after measuring it.
    public var instructions = false
    public var help = false
    public var profile = SuiteProfile.standard

    public init() {}

    public static let usage = """
        usage: <Suite> [--profile quick|standard|full] [--filter REGEX] [--list] [--warmup N]
                       [--iterations N] [--max-seconds S] [--json PATH] [--report-dir DIR] [--quiet]
                       [--instructions]
          --profile NAME   which sizes: quick (smallest, for a CI gate), standard (the
                           default), full (adds 1,000,000 rows)
          --filter REGEX   run benchmarks whose id ("name param=value …") matches;
                           the reference lines they are compared with run too
          --list           list the benchmarks and exit
          --warmup N       unmeasured iterations before measuring, at most (default 1)
          --iterations N   measured iterations at most (default 10)
          --max-seconds S  stop measuring a benchmark after S seconds, and warming it up
                           after another S (default 10; at least one of each runs)
          --json PATH      write the report here (default Results/<suite>-<UTC time>.json)
          --report-dir DIR also write DIR/latest-<suite>.json and DIR/report.md and
                           DIR/report.html covering every DIR/latest-*.json (default
                           Results without --json; with --json, nothing else is written
                           unless --report-dir is given)
          --quiet          print no table and no progress
          --instructions   also count each selected line's instructions: the suite runs
                           again under valgrind's callgrind, one line at a time, collecting
                           only its measured closure (one warm-up, one iteration); reports
                           `instructions` and `instructionsPerItem`. Needs valgrind.
          A flag's value may also be attached: --filter=REGEX, --profile=quick.
        \(CommandLineHelp.usageLine)
        """

    /// The flags that take a value, which may also be attached with `=`
    /// (`--filter=REGEX`), as the Faulting profiler's own flags may: `./tasks.sh
    /// bench` passes either form on to every suite.
    static let valuedFlags: Set<String> = ["--profile", "--filter", "--warmup", "--iterations", "--max-seconds", "--json", "--report-dir"]

    /// Parses arguments (without the program name).
    public static func parse(_ arguments: [String]) throws(UsageError) -> RunOptions {
        var options = RunOptions()
        if CommandLineHelp.isRequested(arguments) {
            options.help = true
            return options
        }
        var scanner = ArgumentScanner(arguments, attachable: valuedFlags)
        while let argument = scanner.next() {
            switch argument {
            case "--filter":
                let pattern = try scanner.value(for: argument)
                do { options.filter = try NSRegularExpression(pattern: pattern) } catch {
                    throw UsageError("--filter: invalid regular expression '\(pattern)'")
                }
            case "--list": options.list = true
            case "--warmup": options.warmupIterations = try scanner.integer(for: argument, atLeast: 0)
            case "--iterations": options.iterations = try scanner.integer(for: argument, atLeast: 1)
            case "--max-seconds":
                options.maxSeconds = try scanner.number(for: argument, minimum: 0, inclusive: false)
                // The budget is counted in UInt64 nanoseconds.
                guard options.maxSeconds <= Self.longestBudget else {
                    throw UsageError("--max-seconds needs a number ≤ \(Int(Self.longestBudget)) (about 31 years), got \(options.maxSeconds)")
                }
            case "--json": options.jsonPath = try scanner.value(for: argument)
            case "--report-dir": options.reportDirectory = try scanner.value(for: argument)
            case "--quiet": options.quiet = true
            case "--instructions": options.instructions = true
            case "--profile":
                options.profile = try SuiteProfile(arguments: [argument, try scanner.value(for: argument)])
            default: throw UsageError.unknownOption(argument)
            }
        }
        return options
    }

    func selects(_ id: String) -> Bool {
        guard let filter else { return true }
        return filter.firstMatch(in: id, range: NSRange(id.startIndex..., in: id)) != nil
    }
}
