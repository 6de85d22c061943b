import Faultline
import FaultlineCommandLine

/// The arguments of `predicate parse` after the word `parse`.
struct PredicateCommandOptions {
    var format: String
    var arguments: [PredicateValue] = []
    var variables: [String: PredicateValue] = [:]
    var modelPath: String?
    var entity: String?

    static func parse(_ words: ArraySlice<String>) throws(UsageError) -> PredicateCommandOptions {
        var format: String?
        var arguments: [PredicateValue] = []
        var variables: [String: PredicateValue] = [:]
        var modelPath: String?
        var entity: String?
        var scanner = ArgumentScanner(words)
        var positionalOnly = false
        while let word = scanner.next() {
            if positionalOnly || !ArgumentScanner.isOption(word) {
                if word == "--", !positionalOnly {
                    positionalOnly = true
                } else if format == nil {
                    format = word
                } else {
                    arguments.append(PredicateArgument.value(word))
                }
                continue
            }
            switch word {
            case "--model": modelPath = try scanner.value(for: word)
            case "--entity": entity = try scanner.value(for: word)
            case "--var":
                let value = try scanner.repeatedValue(for: word)
                guard let variable = PredicateArgument.variable(value) else {
                    throw UsageError("--var needs NAME=VALUE, not '\(value)'")
                }
                variables[variable.name] = variable.value
            default: throw UsageError.unknownOption(word)
            }
        }
        guard let format else { throw UsageError("predicate parse needs a FORMAT") }
        if (modelPath == nil) != (entity == nil) { throw UsageError("--model and --entity go together") }
        var options = PredicateCommandOptions(format: format)
        options.arguments = arguments
        options.variables = variables
        options.modelPath = modelPath
        options.entity = entity
        return options
    }
}
