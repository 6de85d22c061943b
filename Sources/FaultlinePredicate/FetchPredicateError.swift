import Foundation
/// Everything that can go wrong with a predicate: parsing its format string,
/// binding its arguments, substituting its variables or evaluating it.
///
/// Offsets are UTF-8 byte offsets into the format string, counted from 0.
/// `description` is the message a user sees, for example
/// "expected a value after '==' at offset 12, found 'AND'".
public enum FetchPredicateError: Error, Hashable, Sendable {
    // MARK: Parsing
    /// The parser found `found` where it needed `expected`.
    case syntax(offset: Int, found: String, expected: String)
    /// A quoted string that never closes; the offset is its opening quote.
    case unterminatedString(offset: Int)
    /// A backslash escape that is not \n \t \r \" \' \\ or \uXXXX.
    case invalidEscape(offset: Int, sequence: String)
    /// A number that does not parse or does not fit (`Int64` or a finite double).
    case invalidNumber(offset: Int, text: String)
    /// A character that starts no token.
    case unexpectedCharacter(offset: Int, character: String)
    /// A word or symbol where a comparison operator belongs.
    case unknownOperator(offset: Int, text: String)
    /// An operator Core Data has only on Apple platforms, with why it is refused.
    case unsupportedOperator(offset: Int, text: String, reason: String)
    /// An option letter other than `c` and `d` inside `[…]`.
    case unknownOption(offset: Int, text: String)
    /// A `%` specifier other than %@ %K %d %i %u %ld %li %lu %lld %lli %llu %f %lf %s.
    case unknownFormatSpecifier(offset: Int, text: String)
    /// A `(` never closed (offset of the `(`) or a `)` never opened.
    case unbalancedParenthesis(offset: Int)
    /// A reserved word used as a key without the `#` escape.
    case reservedWord(offset: Int, word: String)
    /// A function name Faultline does not have; `reason` says why when it is
    /// one of Foundation's that it refuses.
    case unsupportedFunction(offset: Int, name: String, reason: String?)
    /// Parentheses, NOT, lists, subqueries or the arrays of an argument nested
    /// deeper than `limit`; the offset is nil for a substituted value or a
    /// tree built in code.
    case nestingTooDeep(offset: Int?, limit: Int)
    /// An operand the operator cannot take (`BETWEEN {1}`, `IN 3`).
    case invalidOperand(offset: Int, operator: String, expected: String)
    /// A MATCHES pattern that is not a valid ICU regular expression; the offset
    /// is known when the pattern came from the format string or an argument.
    case invalidRegularExpression(offset: Int?, pattern: String)

    // MARK: Arguments and variables
    /// A specifier with no argument left for it; `index` counts from 0.
    case missingArgument(offset: Int, specifier: String, index: Int)
    /// An argument of the wrong kind for its specifier (%K needs a string, %d an integer).
    case wrongArgumentType(offset: Int, specifier: String, index: Int, found: String)
    /// A %K argument that is not a dotted key path of identifiers.
    case invalidKeyPathArgument(offset: Int, keyPath: String)
    /// A Swift value that has no predicate representation.
    case unsupportedArgumentType(index: Int, type: String)
    /// `$NAME.key` cannot take a constant: only a bare `$NAME` is substituted.
    case variableWithKeyPath(name: String)

    // MARK: Evaluation
    /// `$NAME` reached evaluation without a value.
    case unsubstitutedVariable(name: String)
    /// A subject has no property `key`.
    case unknownKey(entity: String, key: String)
    /// A key path continues past a scalar (`name.first` where name is a string).
    case notAnObject(key: String, found: String)
    /// Operands the operator cannot compare (`name > 3` with a string name).
    case typeMismatch(operator: String, left: String, right: String)
    /// A to-many key path compared directly: it needs ANY, ALL, NONE or an aggregate.
    case collectionNeedsModifier(operator: String)
    /// ANY, ALL or NONE over something that is not a collection.
    case modifierNeedsCollection(modifier: String, found: String)
    /// An aggregate (`@count`, `@sum`, …) over a to-one or a scalar.
    case aggregateNeedsCollection(aggregate: String, found: String)
    /// `@sum`, `@avg`, `@min` or `@max` of a to-many's objects themselves
    /// (`items.@sum`): it needs one of their attributes after it (`items.@sum.price`).
    case aggregateNeedsAttribute(aggregate: String)
    /// An aggregate of values it cannot combine (`items.@sum.name` with a string name).
    case aggregateValueKind(aggregate: String, expected: String, found: String)
    /// `@sum` or `@avg` of integers beyond `Int64`.
    case arithmeticOverflow(aggregate: String)
    /// A function given the wrong number of arguments.
    case functionArity(function: String, expected: Int, found: Int)
    /// A function argument of a kind it does not take.
    case functionArgument(function: String, expected: String, found: String)
    /// A function argument that is a collection or an object, not a value.
    case functionNeedsValue(function: String, argument: String)

    /// The UTF-8 offset in the format string, when the error has one.
    public var offset: Int? {
        switch self {
        case .syntax(let offset, _, _), .unterminatedString(let offset), .invalidEscape(let offset, _),
            .invalidNumber(let offset, _), .unexpectedCharacter(let offset, _),
            .unknownOperator(let offset, _), .unknownOption(let offset, _), .unsupportedOperator(let offset, _, _),
            .unknownFormatSpecifier(let offset, _), .unbalancedParenthesis(let offset),
            .reservedWord(let offset, _), .unsupportedFunction(let offset, _, _),
            .invalidOperand(let offset, _, _), .missingArgument(let offset, _, _),
            .wrongArgumentType(let offset, _, _, _), .invalidKeyPathArgument(let offset, _):
            offset
        case .invalidRegularExpression(let offset, _), .nestingTooDeep(let offset, _):
            offset
        default:
            nil
        }
    }

    /// The same error with an unsupported argument's position set to `argumentIndex`.
    func renumbered(argumentIndex: Int) -> FetchPredicateError {
        guard case .unsupportedArgumentType(_, let type) = self else { return self }
        return .unsupportedArgumentType(index: argumentIndex, type: type)
    }
}

extension FetchPredicateError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .syntax(let offset, let found, let expected):
            "expected \(expected) at offset \(offset), found \(found)"
        case .unterminatedString(let offset):
            "unterminated string starting at offset \(offset)"
        case .invalidEscape(let offset, let sequence):
            "invalid escape '\(sequence)' at offset \(offset)"
        case .invalidNumber(let offset, let text):
            "invalid number '\(text)' at offset \(offset)"
        case .unexpectedCharacter(let offset, let character):
            "unexpected character '\(character)' at offset \(offset)"
        case .unknownOperator(let offset, let text):
            "unknown operator '\(text)' at offset \(offset)"
        case .unsupportedOperator(let offset, let text, let reason):
            "unsupported operator '\(text)' at offset \(offset): \(reason)"
        case .unknownOption(let offset, let text):
            "unknown comparison option '\(text)' at offset \(offset); expected c, d or cd"
        case .unknownFormatSpecifier(let offset, let text):
            "unknown format specifier '\(text)' at offset \(offset)"
        case .unbalancedParenthesis(let offset):
            "unbalanced parenthesis at offset \(offset)"
        case .reservedWord(let offset, let word):
            "'\(word)' at offset \(offset) is a reserved word; write '#\(word)' to use it as a key"
        case .unsupportedFunction(let offset, let name, let reason):
            "unsupported function '\(name)' at offset \(offset)" + (reason.map { ": \($0)" } ?? "")
        case .nestingTooDeep(let offset, let limit):
            "nesting deeper than \(limit) levels" + (offset.map { " at offset \($0)" } ?? "")
        case .invalidOperand(let offset, let op, let expected):
            "'\(op)' needs \(expected) at offset \(offset)"
        case .invalidRegularExpression(let offset, let pattern):
            "invalid regular expression '\(pattern)'" + (offset.map { " at offset \($0)" } ?? "")
        case .missingArgument(let offset, let specifier, let index):
            "'\(specifier)' at offset \(offset) needs argument \(index + 1), but only \(index) were given"
        case .wrongArgumentType(let offset, let specifier, let index, let found):
            "'\(specifier)' at offset \(offset) cannot take argument \(index + 1), a \(found)"
        case .invalidKeyPathArgument(let offset, let keyPath):
            "'%K' at offset \(offset) needs a key path of identifiers, not \"\(keyPath)\""
        case .unsupportedArgumentType(let index, let type):
            "argument \(index + 1) of type \(type) has no predicate value"
        case .variableWithKeyPath(let name):
            "$\(name) is followed by a key path and cannot be replaced by a constant"
        case .unsubstitutedVariable(let name):
            "variable $\(name) has no value; substitute it before evaluating"
        case .unknownKey(let entity, let key):
            "entity \(entity) has no key '\(key)'"
        case .notAnObject(let key, let found):
            "cannot read key '\(key)' from a \(found)"
        case .typeMismatch(let op, let left, let right):
            "'\(op)' cannot compare a \(left) with a \(right)"
        case .collectionNeedsModifier(let op):
            "a to-many key path before '\(op)' needs ANY, ALL, NONE or an aggregate"
        case .modifierNeedsCollection(let modifier, let found):
            "\(modifier) needs a to-many key path, not a \(found)"
        case .aggregateNeedsCollection(let aggregate, let found):
            "\(aggregate) needs a to-many key path, not a \(found)"
        case .aggregateNeedsAttribute(let aggregate):
            "\(aggregate) needs an attribute of the to-many's objects after it (items.\(aggregate).price), not the objects"
        case .aggregateValueKind(let aggregate, let expected, let found):
            "\(aggregate) needs \(expected), not a \(found)"
        case .arithmeticOverflow(let aggregate):
            "\(aggregate) overflows a 64-bit integer"
        case .functionArity(let function, let expected, let found):
            "\(function) takes \(expected) arguments, not \(found)"
        case .functionArgument(let function, let expected, let found):
            "\(function) needs \(expected), not a \(found)"
        case .functionNeedsValue(let function, let argument):
            "\(function) needs a value, not the collection or object \(argument)"
        }
    }
}

extension FetchPredicateError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
