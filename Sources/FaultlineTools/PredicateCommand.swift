import Faultline
import FaultlineCommandLine
import FaultlineSQLite

/// `faultline predicate parse 'FORMAT' [ARG …] [--var NAME=VALUE …]
/// [--model PATH --entity NAME]`: what a predicate parses to and, with a
/// model, the SQL, bound values and query plan it compiles to.
///
/// Exit status 0 on success, 2 on bad usage, a parse error, a model error or a
/// predicate that does not compile. Never traps on any input: every failure of
/// the parser and the compiler is a thrown error.
public enum PredicateCommand {
    public static let usage = """
        usage: faultline predicate parse 'FORMAT' [ARG ...] [--var NAME=VALUE ...]
                                         [--model PATH --entity NAME]
          prints the canonical predicate and its syntax tree, or the error and its offset
          ARG          one per %@ %K %d ... in FORMAT, in order: 42 is an integer, 4.2 a
                       double, true/false a boolean, nil nil, 'text' (quoted) a string,
                       {1, 2, 'x'} an array, @2024-01-31 or @2024-01-31T12:00:00Z a date (UTC);
                       anything else is a string. Put ARGs starting with -- (or -h) after --
          --var NAME=VALUE  substitutes $NAME, VALUE read as ARG is
          --model PATH      a .xcdatamodeld, .xcdatamodel or contents file; with
          --entity NAME     also prints the SQL, its bindings and the query plan
        \(CommandLineHelp.usageLine)
        exit status: 0 success, 2 bad usage (a --var the predicate does not use), parse or
        model error
        """

    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        if let status = CommandLineHelp.answer(arguments, usage: usage, write: write) { return status }
        let options: PredicateCommandOptions
        do {
            guard arguments.first == "parse" else {
                throw UsageError(arguments.first.map { "unknown predicate command '\($0)' (parse)" } ?? "no predicate command given")
            }
            options = try PredicateCommandOptions.parse(arguments.dropFirst())
        } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        return parse(options, write: write)
    }

    private static func parse(_ options: PredicateCommandOptions, write: (String) -> Void) -> Int32 {
        var predicate: FetchPredicate
        do {
            predicate = try FetchPredicate(format: options.format, arguments: options.arguments)
            if let unused = try unusedVariable(options.variables, in: predicate) {
                return CommandFailure.report("--var \(unused): the predicate has no variable $\(unused)", write: write)
            }
            if !options.variables.isEmpty { predicate = try predicate.substituting(options.variables) }
        } catch {
            write("error: \(error.description)\n")
            if let offset = error.offset { write(caret(options.format, offset: offset)) }
            return CommandFailure.status
        }
        write("predicate: \(predicate.description)\n")
        write("tree:\n")
        for line in PredicateTreePrinter.lines(predicate.root) { write("  \(line)\n") }
        guard let modelPath = options.modelPath, let entity = options.entity else { return 0 }
        do {
            let explanation = try PredicateSQLExplainer.explain(predicate, modelPath: modelPath, entityName: entity)
            write(render(explanation))
            return 0
        } catch {
            return CommandFailure.report(error, write: write)
        }
    }

    /// The first variable (by name) whose substitution leaves the predicate as
    /// it was: a misspelt `--var` would otherwise leave `$NAME` standing unseen.
    private static func unusedVariable(_ variables: [String: PredicateValue], in predicate: FetchPredicate)
        throws(FetchPredicateError) -> String?
    {
        for name in variables.keys.sorted() {
            guard let value = variables[name] else { continue }
            if try predicate.substituting([name: value]).description == predicate.description { return name }
        }
        return nil
    }

    private static func render(_ explanation: PredicateSQLExplanation) -> String {
        var text = "entity: \(explanation.entity) (table \(explanation.table))\n"
        text += "sql: \(explanation.sql)\n"
        text += "bindings:" + (explanation.bindings.isEmpty ? " none\n" : "\n")
        for (index, value) in explanation.bindings.enumerated() { text += "  ?\(index + 1) = \(value.description)\n" }
        text += "plan:\n"
        for line in explanation.plan { text += "  \(line)\n" }
        return text
    }

    /// The format string with a caret under the byte at `offset`, for one-line
    /// formats of reasonable length; empty otherwise.
    private static func caret(_ format: String, offset: Int) -> String {
        let bytes = Array(format.utf8)
        guard offset >= 0, offset <= bytes.count, bytes.count <= 200,
              !bytes.contains(where: { $0 == 10 || $0 == 13 || $0 == 9 }) else { return "" }
        // Columns count characters, not bytes, up to the offset.
        let column = String(decoding: bytes[..<offset], as: UTF8.self).count
        return "  \(format)\n  \(String(repeating: " ", count: column))^\n"
    }
}
