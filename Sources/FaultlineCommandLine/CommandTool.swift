/// A tool made of commands (`faultline model …`, `faultline bench gate …`):
/// the one dispatcher, the one top-level usage and the one `--help` rule for
/// every executable of the package.
public struct CommandTool: Sendable {
    public let name: String
    public let commands: [ToolCommand]
    /// Commands still answered under an old name, each with the line written to
    /// standard error when it is used.
    public let deprecated: [(command: ToolCommand, notice: String)]

    public init(name: String, commands: [ToolCommand], deprecated: [(command: ToolCommand, notice: String)] = []) {
        self.name = name
        self.commands = commands
        self.deprecated = deprecated
    }

    public var usage: String {
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        let lines = commands.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + $0.summary }
        return """
            usage: \(name) <command> [arguments]
            commands:
            \(lines.joined(separator: "\n"))
            \(CommandLineHelp.usageLine)
            `\(name) COMMAND --help` prints that command's usage and flags
            exit status: 0 success, 1 a finding (regression, drift, refused migration), 2 bad input
            """
    }

    public func run(_ arguments: [String], write: (String) -> Void, writeError: (String) -> Void = { _ in }) -> Int32 {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case let word? where word == "help" || CommandLineHelp.flags.contains(word):
            write(usage + "\n")
            return 0
        case let word?:
            if let command = commands.first(where: { $0.name == word }) { return command.run(rest, write) }
            if let old = deprecated.first(where: { $0.command.name == word }) {
                writeError(old.notice + "\n")
                return old.command.run(rest, write)
            }
            return CommandFailure.report("unknown command '\(word)'", usage: usage, write: write)
        case nil:
            return CommandFailure.report("no command given", usage: usage, write: write)
        }
    }
}
