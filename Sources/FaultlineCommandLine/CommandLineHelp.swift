/// How the tool, each of its commands and each suite executable recognise a
/// request for help, so that none of them takes `--help` for an unknown option.
public enum CommandLineHelp {
    public static let flags: Set<String> = ["--help", "-h"]

    /// The line every usage text ends its flags with.
    public static let usageLine = "  -h, --help       print this usage and exit 0"

    /// Whether `arguments` ask for help. Help wins over every other word, even
    /// a bad one, so a user can always find out what the command takes; after
    /// a `--` every word is an operand, so a predicate argument `-h` stays one.
    public static func isRequested(_ arguments: some Sequence<String>) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if flags.contains(argument) { return true }
        }
        return false
    }

    /// Writes `usage` and returns exit status 0 when `arguments` ask for help;
    /// nil when they do not and the command goes on.
    public static func answer(_ arguments: some Sequence<String>, usage: String, write: (String) -> Void) -> Int32? {
        guard isRequested(arguments) else { return nil }
        write(usage + "\n")
        return 0
    }
}
