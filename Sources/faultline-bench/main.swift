import FaultlineBench
import FaultlineCommandLine
import FaultlineTools
import Foundation

// faultline-bench: the benchmark-report commands (also `faultline bench …`).
// The user commands moved to `faultline`; their old names here still work for
// this release and say so on standard error.

let program = "faultline-bench"
let commands = BenchCommands.all
let tool = CommandTool(
    name: program, commands: commands + [CompletionScript.command(completing: commands, of: program)],
    deprecated: ToolCommands.all.map { command in
        (command, "warning: `faultline-bench \(command.name)` is deprecated and goes in the next release: use `faultline \(command.name)`")
    })
exit(tool.run(
    Array(CommandLine.arguments.dropFirst()),
    write: { FileHandle.standardOutput.write(Data($0.utf8)) },
    writeError: { FileHandle.standardError.write(Data($0.utf8)) }))
