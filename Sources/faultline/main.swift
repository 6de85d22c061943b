import FaultlineBench
import FaultlineCommandLine
import FaultlineTools
import Foundation

// faultline: the user tool — model files, stores, predicates — and the
// benchmark-report commands as its `bench` group.

let program = "faultline"
let commands = ToolCommands.all + [
    ToolCommand(
        group: "bench", summary: "benchmark reports: compare, gate, report, export, history",
        children: BenchCommands.all, programName: program),
]
let tool = CommandTool(name: program, commands: commands + [CompletionScript.command(completing: commands, of: program)])
exit(tool.run(
    Array(CommandLine.arguments.dropFirst()),
    write: { FileHandle.standardOutput.write(Data($0.utf8)) },
    writeError: { FileHandle.standardError.write(Data($0.utf8)) }))
