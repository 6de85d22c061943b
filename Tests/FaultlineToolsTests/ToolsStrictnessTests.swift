import Testing
@testable import FaultlineTools

/// `model`, `store` and `predicate` refuse an unknown option, a flag standing
/// where its value should be, and a `--var` the predicate never uses (it would
/// leave `$NAME` unsubstituted, unseen): exit 2, one `error:` line naming it.
@Suite("model, store and predicate refuse unknown options, missing values and unused --var")
struct ToolsStrictnessTests {
    typealias Command = ([String], (String) -> Void) -> Int32

    static var cases: [(Command, [String], String)] { [
        (ModelCommand.run, ["inspect", "--verbose", "x.xcdatamodeld"], "unknown argument '--verbose'"),
        (ModelCommand.run, ["diff", "a", "--to"], "unknown argument '--to'"),
        (ModelCommand.run, ["show", "a"], "unknown model command 'show' (inspect or diff)"),
        (StoreCommand.run, ["inspect", "s.sqlite", "--model", "--verbose"], "--model needs a value, got the option '--verbose'"),
        (StoreCommand.run, ["inspect", "s.sqlite", "--model"], "--model needs a value"),
        (StoreCommand.run, ["inspect", "s.sqlite", "--model", "a", "--model", "b"], "--model given twice"),
        (StoreCommand.run, ["inspect", "s.sqlite", "--bogus"], "unknown argument '--bogus'"),
        (StoreCommand.run, ["inspect", "s.sqlite", "t.sqlite"], "unexpected argument 't.sqlite'"),
        (StoreCommand.run, ["dump", "s.sqlite"], "unknown store command 'dump' (inspect, migrate, history)"),
        (PredicateCommand.run, ["parse", "a == 1", "--model", "--entity", "E"], "--model needs a value, got the option '--entity'"),
        (PredicateCommand.run, ["parse", "a == 1", "--bogus"], "unknown argument '--bogus'"),
        (PredicateCommand.run, ["parse", "a == 1", "--var", "LIMIT"], "--var needs NAME=VALUE, not 'LIMIT'"),
        (PredicateCommand.run, ["parse", "prepTime < $LIMIT", "--var", "LIMT=30"], "--var LIMT: the predicate has no variable $LIMT"),
        (PredicateCommand.run, ["explain", "a == 1"], "unknown predicate command 'explain' (parse)"),
    ] }

    @Test("Refused with exit 2 and one error line naming the value", arguments: cases.indices)
    func refused(index: Int) {
        let (command, arguments, fragment) = Self.cases[index]
        var output = ""
        let status = command(arguments) { output += $0 }
        let errors = output.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(status == 2, "\(arguments): \(output)")
        #expect(errors.count == 1 && output.hasPrefix("error: "), "\(arguments): \(output)")
        #expect(errors.first?.contains(fragment) == true, "\(arguments): wanted '\(fragment)' in \(output)")
    }

    @Test("A --var the predicate uses is substituted; one inside a SUBQUERY's own variable is not taken for it")
    func usedVariable() {
        var output = ""
        #expect(PredicateCommand.run(["parse", "prepTime < $LIMIT", "--var", "LIMIT=30"]) { output += $0 } == 0)
        #expect(output.contains("predicate: prepTime < 30"), "\(output)")
        var bound = ""
        let status = PredicateCommand.run(["parse", "SUBQUERY(ingredients, $i, $i.amount > 1).@count > 0",
                                           "--var", "i=3"]) { bound += $0 }
        #expect(status == 2, "\(bound)")
        #expect(bound.hasPrefix("error: --var i: the predicate has no variable $i"), "\(bound)")
    }
}
