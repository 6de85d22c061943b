import FaultlineBench
import FaultlineCommandLine
import FaultlineTools
import Foundation

// faultline-bench: the tool that compares, gates, renders and exports benchmark reports.

let usage = """
    usage: faultline-bench <command> [arguments]
    commands:
      compare BASELINE.json CURRENT.json [--threshold PCT] [--metric NAME ...]
      gate BASELINE.json CURRENT.json [--thresholds PATH.json]
      report [--markdown PATH] [--html PATH] REPORT.json [REPORT.json ...]
      export --format google-benchmark|github-action-benchmark REPORT.json [...] --output PATH [--bigger-output PATH]
      history SUITE [--repository DIR] [--limit N] [--html PATH]
      predicate parse 'FORMAT' [ARG ...] [--var NAME=VALUE ...] [--model PATH --entity NAME]
        ARG: 42 integer, 4.2 double, true/false, nil, 'text' string; anything else a string
      model inspect PATH | model diff OLD NEW
      store inspect STORE [--model PATH] | store migrate STORE --to MODEL [--dry-run]
      store history STORE [--model PATH] [--after N] [--json]
      -h, --help: this usage; `faultline-bench COMMAND --help`: that command's flags
    exit status: 0 success, 1 regression (compare, gate), 2 bad input
    """

func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }

let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())
switch arguments.first {
case "compare":
    exit(CompareCommand.run(rest, write: write))
case "gate":
    exit(GateCommand.run(rest, write: write))
case "report":
    exit(ReportCommand.run(rest, write: write))
case "export":
    exit(ExportCommand.run(rest, write: write))
case "history":
    exit(HistoryCommand.run(rest, write: write))
case "predicate":
    exit(PredicateCommand.run(rest, write: write))
case "model":
    exit(ModelCommand.run(rest, write: write))
case "store":
    exit(StoreCommand.run(rest, write: write))
case let word? where word == "help" || CommandLineHelp.isRequested([word]):
    write(usage + "\n")
    exit(0)
case let command?:
    exit(CommandFailure.report("unknown command '\(command)'", usage: usage, write: write))
case nil:
    exit(CommandFailure.report("no command given", usage: usage, write: write))
}
