import Faultline

/// The arguments of `predicate parse` after the word `parse`.
struct PredicateCommandOptions {
    var format: String
    var arguments: [PredicateValue] = []
    var variables: [String: PredicateValue] = [:]
    var modelPath: String?
    var entity: String?

    static func parse(_ words: ArraySlice<String>) -> Result<PredicateCommandOptions, PredicateToolError> {
        var format: String?
        var arguments: [PredicateValue] = []
        var variables: [String: PredicateValue] = [:]
        var modelPath: String?
        var entity: String?
        var remaining = words
        var positionalOnly = false
        while let word = remaining.popFirst() {
            if positionalOnly || !word.hasPrefix("--") {
                if format == nil { format = word } else { arguments.append(PredicateArgument.value(word)) }
                continue
            }
            if word == "--" {
                positionalOnly = true
                continue
            }
            guard ["--model", "--entity", "--var"].contains(word) else {
                return .failure(PredicateToolError("unknown option '\(word)'"))
            }
            guard let value = remaining.popFirst() else {
                return .failure(PredicateToolError("\(word) needs a value"))
            }
            switch word {
            case "--model": modelPath = value
            case "--entity": entity = value
            default:
                guard let variable = PredicateArgument.variable(value) else {
                    return .failure(PredicateToolError("--var needs NAME=VALUE, not '\(value)'"))
                }
                variables[variable.name] = variable.value
            }
        }
        guard let format else { return .failure(PredicateToolError("predicate parse needs a FORMAT")) }
        if (modelPath == nil) != (entity == nil) {
            return .failure(PredicateToolError("--model and --entity go together"))
        }
        var options = PredicateCommandOptions(format: format)
        options.arguments = arguments
        options.variables = variables
        options.modelPath = modelPath
        options.entity = entity
        return .success(options)
    }
}
