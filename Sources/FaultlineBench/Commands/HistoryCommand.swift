import FaultlineCommandLine
import Foundation

/// `faultline-bench history SUITE [--repository DIR] [--limit N] [--html PATH]`:
/// the committed baselines of a suite along `git log`.
public enum HistoryCommand {
    public static let usage = """
        usage: faultline-bench history SUITE [--repository DIR] [--limit N] [--html PATH]
          reads Results/baseline-SUITE.json at every commit that changed it (git log)
          and prints, per line, its ratio to its reference then and now and every
          commit where one of its counters moved
          --repository DIR  the git checkout to read (default: the current directory)
          --limit N         the newest N such commits (default 50)
          --html PATH       also write a page charting each line's ratio and counters
                            over those commits
        \(CommandLineHelp.usageLine)
        exit status: 0 written, 2 bad input (no such baselines, git failing, unwritable output)
        """

    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        if let status = CommandLineHelp.answer(arguments, usage: usage, write: write) { return status }
        var suite: String?, repository = ".", limit = 50, html: String?
        do {
            var scanner = ArgumentScanner(arguments)
            while let argument = scanner.next() {
                switch argument {
                case "--repository": repository = try scanner.value(for: argument)
                case "--limit": limit = try scanner.integer(for: argument, atLeast: 1)
                case "--html": html = try scanner.value(for: argument)
                default:
                    guard suite == nil else { throw UsageError("history takes one suite, got a second: '\(argument)'") }
                    suite = try ArgumentScanner.operand(argument)
                }
            }
            guard suite != nil else { throw UsageError("history needs a suite name (e.g. Inserts)") }
        } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        guard let suite else { return 2 }
        let history: BaselineHistory
        do {
            let (read, skipped) = try BaselineHistory.read(suite: suite, repository: repository, limit: limit)
            history = read
            for commit in skipped { write("note: \(commit): its baseline does not parse (skipped)\n") }
        } catch {
            return CommandFailure.report(error, write: write)
        }
        write("\(suite): \(history.entries.count) baseline(s), \(history.entries.first?.commit ?? "") … "
              + "\(history.entries.last?.commit ?? "")\n")
        for line in history.lineIDs {
            let ratios = history.values(of: line, "ratio").compactMap { $0 }
            let ratio = ratios.isEmpty ? "" : String(format: " ratio %.2fx → %.2fx", ratios[0], ratios[ratios.count - 1])
            write("\(line):\(ratio)\n")
            for step in history.steps(of: line) { write("    \(step)\n") }
        }
        if let html {
            do { try Data(HistoryPage.render(history).utf8).write(to: URL(fileURLWithPath: html)) } catch {
                return CommandFailure.report("cannot write \(html): \((error as NSError).localizedDescription)", write: write)
            }
            write("written: \(html)\n")
        }
        return 0
    }
}
