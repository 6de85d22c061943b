import FaultlineCommandLine

/// The user commands over the core, as `faultline` dispatches, helps and
/// completes them.
public enum ToolCommands {
    public static let all: [ToolCommand] = [
        ToolCommand(
            name: "model", summary: "inspects, diffs, generates Swift from and validates Swift against a model file",
            usage: ModelCommand.usage, subcommands: ["inspect", "diff", "generate", "validate"], run: ModelCommand.run),
        ToolCommand(
            name: "store", summary: "inspects, migrates and reads the history of a Core Data SQLite store",
            usage: StoreCommand.usage, subcommands: ["inspect", "migrate", "history"], run: StoreCommand.run),
        ToolCommand(
            name: "predicate", summary: "parses a predicate and shows its tree, SQL and query plan",
            usage: PredicateCommand.usage, subcommands: ["parse"], run: PredicateCommand.run),
    ]
}
