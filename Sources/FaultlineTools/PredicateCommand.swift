import Faultline
import FaultlineSQLite

/// `faultline-bench predicate parse 'FORMAT' [ARG …] [--var NAME=VALUE …]
/// [--model PATH --entity NAME]`: what a predicate parses to and, with a
/// model, the SQL, bound values and query plan it compiles to.
///
/// Exit status 0 on success, 2 on bad usage, a parse error, a model error or a
/// predicate that does not compile. Never traps on any input: every failure of
/// the parser and the compiler is a thrown error.
public enum PredicateCommand {
    public static let usage = """
        usage: faultline-bench predicate parse 'FORMAT' [ARG ...] [--var NAME=VALUE ...]
                                               [--model PATH --entity NAME]
          prints the canonical predicate and its syntax tree, or the error and its offset
          ARG          one per %@ %K %d ... in FORMAT, in order: 42 is an integer, 4.2 a
                       double, true/false a boolean, nil nil, 'text' (quoted) a string;
                       anything else is a string. Put ARGs starting with -- after --
          --var NAME=VALUE  substitutes $NAME, VALUE read as ARG is
          --model PATH      a .xcdatamodeld, .xcdatamodel or contents file; with
          --entity NAME     also prints the SQL, its bindings and the query plan
        exit status: 0 success, 2 bad usage, parse or model error
        """

    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        guard arguments.first == "parse" else {
            let what = arguments.first.map { "unknown predicate command '\($0)'" } ?? "no predicate command given"
            write("error: \(what)\n\(usage)\n")
            return 2
        }
        let options: PredicateCommandOptions
        switch PredicateCommandOptions.parse(arguments.dropFirst()) {
        case .success(let parsed): options = parsed
        case .failure(let error):
            write("error: \(error)\n\(usage)\n")
            return 2
        }
        return parse(options, write: write)
    }

    private static func parse(_ options: PredicateCommandOptions, write: (String) -> Void) -> Int32 {
        var predicate: FetchPredicate
        do {
            predicate = try FetchPredicate(format: options.format, arguments: options.arguments)
            if !options.variables.isEmpty { predicate = try predicate.substituting(options.variables) }
        } catch {
            write("error: \(error.description)\n")
            if let offset = error.offset { write(caret(options.format, offset: offset)) }
            return 2
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
            write("error: \(error.description)\n")
            return 2
        }
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
