import Testing
@testable import FaultlineTools

/// `--help` and `-h` print the usage of `model`, `store` and `predicate`, with
/// their flags, and exit 0, wherever they stand and beside bad arguments.
@Suite("model, store and predicate answer --help and -h with their usage and exit 0")
struct ToolsHelpTests {
    typealias Command = ([String], (String) -> Void) -> Int32

    static var commands: [(name: String, run: Command, usage: String, flags: [String])] { [
        ("model", ModelCommand.run, ModelCommand.usage, ["inspect", "diff"]),
        ("store", StoreCommand.run, StoreCommand.usage, ["inspect", "--model"]),
        ("predicate", PredicateCommand.run, PredicateCommand.usage, ["parse", "--var", "--model", "--entity"]),
    ] }

    static let commandLines: [[String]] = [
        ["--help"], ["-h"], ["inspect", "-h"], ["parse", "a == 1", "--help"], ["frobnicate", "--bogus", "-h"],
    ]

    @Test("Each command", arguments: commands.indices, commandLines)
    func command(index: Int, arguments: [String]) {
        let command = Self.commands[index]
        var output = ""
        #expect(command.run(arguments) { output += $0 } == 0, "\(command.name) \(arguments): \(output)")
        #expect(output == command.usage + "\n", "\(command.name) \(arguments): \(output)")
        for flag in command.flags + ["--help"] { #expect(command.usage.contains(flag), "\(command.name) \(flag)") }
    }

    @Test("A predicate argument -h after -- is an argument, not a request for help")
    func separator() {
        var output = ""
        #expect(PredicateCommand.run(["parse", "name == %@", "--", "-h"]) { output += $0 } == 0)
        #expect(output.contains(#"predicate: name == "-h""#), "\(output)")
    }
}
