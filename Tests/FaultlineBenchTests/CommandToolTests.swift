import FaultlineCommandLine
import Testing

/// The one dispatcher every executable uses: its usage lists each command,
/// help exits 0, a bad or missing command exits 2 with the usage, a group
/// routes to its children, and an old name still runs with a notice on
/// standard error.
@Suite("A command table dispatches, helps and routes old names with a notice")
struct CommandToolTests {
    static let echo = ToolCommand(
        name: "echo", summary: "writes its arguments", usage: "usage: t echo [--loud] [--times N] WORD...\n  --loud  shouts"
    ) { arguments, write in
        write(arguments.joined(separator: " ") + "\n")
        return arguments.isEmpty ? 1 : 0
    }
    static let group = ToolCommand(group: "pair", summary: "two of them", children: [echo], programName: "t")
    static let tool = CommandTool(
        name: "t", commands: [echo, group],
        deprecated: [(ToolCommand(name: "old", summary: "", usage: "") { _, write in write("old ran\n"); return 0 }, "warning: `t old` goes")])

    func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        var output = "", errors = ""
        let status = Self.tool.run(arguments, write: { output += $0 }, writeError: { errors += $0 })
        return (status, output, errors)
    }

    @Test("The usage lists every command with its summary; help, -h and --help print it and exit 0")
    func usage() {
        for line in ["  echo  writes its arguments", "  pair  two of them", "usage: t <command> [arguments]"] {
            #expect(Self.tool.usage.contains(line), "\(Self.tool.usage)")
        }
        for arguments in [["help"], ["-h"], ["--help"]] {
            let result = run(arguments)
            #expect(result.status == 0 && result.output == Self.tool.usage + "\n", "\(arguments): \(result.output)")
        }
    }

    @Test("An unknown or missing command exits 2 with the error and the usage")
    func badCommand() {
        let unknown = run(["ehco", "x"])
        #expect(unknown.status == 2 && unknown.output == "error: unknown command 'ehco'\n" + Self.tool.usage + "\n")
        let none = run([])
        #expect(none.status == 2 && none.output.hasPrefix("error: no command given\n"))
    }

    @Test("A command gets the rest of the line and its status is the tool's")
    func dispatch() {
        #expect(run(["echo", "a", "b"]) == (0, "a b\n", ""))
        #expect(run(["echo"]).status == 1)
        #expect(run(["pair", "echo", "c"]) == (0, "c\n", ""))
        let groupHelp = run(["pair", "--help"])
        #expect(groupHelp.status == 0 && groupHelp.output.hasPrefix("usage: t pair <command> [arguments]"))
        #expect(run(["pair", "nope"]).status == 2)
    }

    @Test("An old name runs its command and writes the notice to standard error only")
    func deprecated() {
        #expect(run(["old"]) == (0, "old ran\n", "warning: `t old` goes\n"))
    }

    @Test("Completion offers the flags a usage names, once each and in order")
    func flags() {
        #expect(Self.echo.flags == ["--loud", "--times"])
        #expect(Self.group.subcommands == ["echo"])
        let separators = ToolCommand(name: "s", summary: "", usage: "a -- b --x-- [--a-b] --a-b, --c=1 x--y") { _, _ in 0 }
        #expect(separators.flags == ["--a-b", "--c"])
    }

    @Test("`completion` refuses a missing, unknown or second shell with exit 2")
    func completionUsage() {
        let command = CompletionScript.command(completing: [Self.echo], of: "t")
        for arguments in [[], ["tcsh"], ["bash", "zsh"]] {
            var output = ""
            #expect(command.run(arguments) { output += $0 } == 2, "\(arguments)")
            #expect(output.hasPrefix("error: "), "\(arguments): \(output)")
        }
        var script = ""
        #expect(command.run(["bash"]) { script += $0 } == 0)
        #expect(script.contains("complete -o filenames -F _t t"))
    }
}
