import Foundation

// Its own type rather than FetchError or ModelFileError: every case names the
// template, which is what a developer looks for in the model editor, and the
// problems belong to neither a running fetch nor a line of the XML.

/// A model file's fetch request template that cannot become a `FetchRequest`.
public enum FetchRequestTemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The template fetches an entity the model does not have.
    case unknownEntity(template: String, entity: String)
    /// The template's `predicateString` does not parse.
    case malformedPredicate(template: String, predicate: String, error: FetchPredicateError)
    /// `fetchRequestFromTemplate(withName:substitutionVariables:)` was given no
    /// value for these `$VARIABLE`s (sorted); Core Data requires all of them.
    case missingSubstitutionVariables(template: String, names: [String])
    /// A substitution value has no predicate form, or a `$NAME.key` was given a value.
    case invalidSubstitution(template: String, variable: String, error: FetchPredicateError)
    /// A `<fetchRequest>` attribute that would change what the fetch returns
    /// and that Faultline cannot apply, or does not know.
    case unsupportedOption(template: String, attribute: String, value: String, reason: String)
    /// A known attribute whose value does not read (`fetchLimit="ten"`).
    case invalidOptionValue(template: String, attribute: String, value: String, expected: String)

    /// The template the error is about.
    public var template: String {
        switch self {
        case .unknownEntity(let template, _), .malformedPredicate(let template, _, _),
            .missingSubstitutionVariables(let template, _), .invalidSubstitution(let template, _, _),
            .unsupportedOption(let template, _, _, _), .invalidOptionValue(let template, _, _, _):
            template
        }
    }

    public var description: String {
        switch self {
        case .unknownEntity(let template, let entity):
            "fetch request template '\(template)' fetches entity '\(entity)', which is not in the model"
        case .malformedPredicate(let template, let predicate, let error):
            "fetch request template '\(template)' has a predicate that does not parse (\(error)): \(predicate)"
        case .missingSubstitutionVariables(let template, let names):
            "fetch request template '\(template)' needs values for "
                + names.map { "$" + $0 }.joined(separator: ", ") + "; the substitution variables must hold every variable of the template"
        case .invalidSubstitution(let template, let variable, let error):
            "fetch request template '\(template)' cannot take the value given for $\(variable): \(error)"
        case .unsupportedOption(let template, let attribute, let value, let reason):
            "fetch request template '\(template)' sets \(attribute)=\"\(value)\", which Faultline cannot apply: \(reason)"
        case .invalidOptionValue(let template, let attribute, let value, let expected):
            "fetch request template '\(template)' sets \(attribute)=\"\(value)\"; expected \(expected)"
        }
    }
}

extension FetchRequestTemplateError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
