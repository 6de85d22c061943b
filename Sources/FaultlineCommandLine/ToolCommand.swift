/// One command of a tool, as the tool's dispatcher, its help and its shell
/// completion see it. The command's own `run` parses the rest of the line with
/// `ArgumentScanner`; the table only routes to it.
public struct ToolCommand: Sendable {
    public typealias Run = @Sendable ([String], (String) -> Void) -> Int32

    public let name: String
    /// The line the tool's own usage gives the command.
    public let summary: String
    /// What `COMMAND --help` prints: completion reads the flags from it, so a
    /// flag is listed in one place.
    public let usage: String
    /// The words that may follow the command (`inspect`, `diff`, …); a group's
    /// are its children's names.
    public let subcommands: [String]
    /// A group's commands (`bench gate`, …): each is dispatched, helped and
    /// completed as the tool's own commands are.
    public let children: [ToolCommand]
    public let run: Run

    public init(name: String, summary: String, usage: String, subcommands: [String] = [], run: @escaping Run) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.subcommands = subcommands
        self.children = []
        self.run = run
    }

    /// A command whose first word names one of `children`.
    public init(group name: String, summary: String, children: [ToolCommand], programName: String) {
        let tool = CommandTool(name: "\(programName) \(name)", commands: children)
        self.name = name
        self.summary = summary
        self.usage = tool.usage
        self.subcommands = children.map(\.name)
        self.children = children
        self.run = { arguments, write in tool.run(arguments, write: write) }
    }

    /// Every `--flag` the usage names, in order of first mention.
    public var flags: [String] {
        var seen: Set<String> = []
        var flags: [String] = []
        var word = ""
        for character in usage + " " {
            if character.isLetter || character == "-" {
                word.append(character)
                continue
            }
            if word.hasPrefix("--"), word.count > 2, !word.hasSuffix("-"), seen.insert(word).inserted { flags.append(word) }
            word = ""
        }
        return flags
    }
}
