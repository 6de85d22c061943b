import FaultlineCommandLine

/// How much a suite measures. The benchmark list depends on it, so a suite reads
/// it before declaring its benchmarks; the gate refuses to compare reports of
/// different profiles, whose sizes differ.
public enum SuiteProfile: String, CaseIterable, Sendable {
    /// The smallest sizes, for a CI gate that must finish in minutes.
    case quick
    /// The sizes the README quotes; the default.
    case standard
    /// Adds the largest sizes (1,000,000 rows).
    case full

    /// The value of the last `--profile NAME` or `--profile=NAME` in arguments
    /// (without the program name), `standard` when absent.
    public init(arguments: [String]) throws(UsageError) {
        var profile = SuiteProfile.standard
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let name: String
            if argument.hasPrefix("--profile=") {
                name = String(argument.dropFirst("--profile=".count))
            } else if argument == "--profile" {
                guard let next = remaining.popFirst() else { throw UsageError("--profile needs a value") }
                name = next
            } else {
                continue
            }
            guard let named = SuiteProfile(rawValue: name) else {
                throw UsageError("--profile must be one of "
                                 + SuiteProfile.allCases.map(\.rawValue).joined(separator: ", ") + ", got '\(name)'")
            }
            profile = named
        }
        self = profile
    }

    /// This process's profile. An invalid `--profile` reads as `standard` here
    /// and is refused, with its message, when the suite parses its options.
    public static var commandLine: SuiteProfile {
        (try? SuiteProfile(arguments: Array(CommandLine.arguments.dropFirst()))) ?? .standard
    }

    public func pick<Value>(quick: Value, standard: Value, full: Value) -> Value {
        switch self {
        case .quick: quick
        case .standard: standard
        case .full: full
        }
    }
}
