import FaultlineBench
import Foundation

// faultline-bench: the tool that compares and gates benchmark reports.

let usage = """
    usage: faultline-bench <command> [arguments]
    commands:
      compare BASELINE.json CURRENT.json [--threshold PCT] [--metric NAME ...]
    """

func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "compare":
    exit(CompareCommand.run(Array(arguments.dropFirst()), write: write))
case "--help", "-h", "help":
    write(usage + "\n")
    exit(0)
case let command?:
    write("error: unknown command '\(command)'\n\(usage)\n")
    exit(2)
case nil:
    write("error: no command given\n\(usage)\n")
    exit(2)
}
