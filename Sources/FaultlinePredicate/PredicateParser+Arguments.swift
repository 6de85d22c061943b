import Foundation

/// Format specifiers, which consume the arguments in order, and `CAST`, which
/// spells constants that have no literal syntax.
extension PredicateParser {
    /// The expression for one specifier, consuming the next argument.
    ///
    /// `%@` takes any value; `%K` a string key path (identifiers joined by
    /// dots, reserved words allowed); `%d %i %ld %li %lld %lli` an integer or
    /// boolean; `%u %lu %llu` a non-negative integer; `%f %lf` a number, as a
    /// double; `%s` a string.
    mutating func argumentExpression(specifier: String, at token: PredicateToken) throws(FetchPredicateError) -> FetchExpression {
        guard argumentIndex < arguments.count else {
            throw .missingArgument(offset: token.offset, specifier: token.text, index: argumentIndex)
        }
        let value = arguments[argumentIndex]
        let wrongType = FetchPredicateError.wrongArgumentType(
            offset: token.offset, specifier: token.text, index: argumentIndex, found: value.kindName)
        argumentIndex += 1
        switch (specifier, value) {
        case ("@", _):
            _ = try PredicateDepth.deeper(depth, by: value.nestingDepth, offset: token.offset)
            return .value(value)
        case ("K", .string(let keyPath)):
            let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard components.allSatisfy(PredicateKeywords.isIdentifier) else {
                throw .invalidKeyPathArgument(offset: token.offset, keyPath: keyPath)
            }
            return .keyPath(PredicateKeyPath(components))
        case ("d", .int), ("i", .int), ("ld", .int), ("li", .int), ("lld", .int), ("lli", .int):
            return .value(value)
        case ("d", .bool(let flag)), ("i", .bool(let flag)), ("ld", .bool(let flag)),
            ("li", .bool(let flag)), ("lld", .bool(let flag)), ("lli", .bool(let flag)):
            return .value(.int(flag ? 1 : 0))
        case ("u", .int(let number)), ("lu", .int(let number)), ("llu", .int(let number)):
            guard number >= 0 else { throw wrongType }
            return .value(value)
        case ("f", .double), ("lf", .double):
            return .value(value)
        case ("f", .int(let number)), ("lf", .int(let number)):
            return .value(.double(Double(number)))
        case ("f", .decimal(let number)), ("lf", .decimal(let number)):
            return .value(.double(NSDecimalNumber(decimal: number).doubleValue))
        case ("s", .string):
            return .value(value)
        default:
            throw wrongType
        }
    }

    /// The offset of the specifier that consumes argument `index` (one per
    /// specifier, in order), for errors found before parsing; nil when the
    /// format string does not tokenize or has fewer specifiers.
    static func offsetOfSpecifier(_ index: Int, in format: String) -> Int? {
        let specifiers = (try? PredicateLexer.tokenize(format))?.filter {
            if case .specifier = $0.kind { true } else { false }
        }
        guard let specifiers, specifiers.indices.contains(index) else { return nil }
        return specifiers[index].offset
    }

    /// `CAST(constant, "Type")` for the constants the description prints this
    /// way: `CAST(<seconds since 2001>, "NSDate")`, `CAST("1.5",
    /// "NSDecimalNumber")`, `CAST("inf", "NSNumber")`, `CAST("<uuid>",
    /// "NSUUID")`, `CAST("<base64>", "NSData")` and
    /// `CAST("Entity/42", "NSManagedObjectID")`.
    ///
    /// Any other operand — a key path, an argument, a `$VARIABLE`, an
    /// expression — cast to `NSNumber` or `NSDate` is a cast function
    /// (`PredicateFunction.castToNumber`, `.castToDate`), applied when the
    /// predicate runs (after substitution, for a variable).
    mutating func parseCast() throws(FetchPredicateError) -> FetchExpression {
        try enter()
        defer { leave() }
        advance()
        try expectPunctuation("(", after: "after CAST")
        let operandToken = current
        let isLiteral: Bool = switch operandToken.kind {
        case .string, .integer, .double: index + 1 < tokens.count && tokens[index + 1].isPunctuation(",")
        default: false
        }
        let operand = try parseArithmetic(context: "the CAST operand")
        try expectPunctuation(",", after: "after the CAST operand")
        let typeToken = advance()
        guard case .string(let type) = typeToken.kind else {
            throw .syntax(offset: typeToken.offset, found: typeToken.quoted, expected: "a quoted type name in CAST")
        }
        try expectPunctuation(")", after: "to close CAST")
        if isLiteral, let value = Self.cast(operandToken.kind, to: type) { return .value(value) }
        if type == "NSNumber" || type == "NSDate" || type == "NSString" {
            let cast: PredicateFunction = type == "NSNumber" ? .castToNumber : type == "NSDate" ? .castToDate : .castToString
            // A constant (a literal, an argument) is cast now, so the
            // predicate prints as the constant and a bad one fails here.
            guard case .value(let value) = operand else { return .function(cast, [operand]) }
            if let result = try? PredicateFunctionEvaluation.apply(cast, [value]) { return .value(result) }
        }
        throw .invalidOperand(offset: operandToken.offset, operator: "CAST", expected: "a constant convertible to \(type)")
    }

    private static func cast(_ operand: PredicateToken.Kind, to type: String) -> PredicateValue? {
        switch (type, operand) {
        case ("NSDate", .double(let seconds)):
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case ("NSDate", .integer(let seconds)):
            return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case ("NSDate", .string(let text)):
            // An ISO 8601 date and time, as apps write them in conditions.
            return ISO8601DateFormatter().date(from: text).map(PredicateValue.date)
        case ("NSDecimalNumber", .string(let text)):
            return PredicateValue.decimal(fromCanonical: text)
        case ("NSNumber", .string(let text)):
            return Double(text).map(PredicateValue.double)
        case ("NSUUID", .string(let text)):
            return UUID(uuidString: text).map(PredicateValue.uuid)
        case ("NSData", .string(let text)):
            return Data(base64Encoded: text).map(PredicateValue.data)
        case ("NSManagedObjectID", .string(let text)):
            return PredicateObjectID(text).map(PredicateValue.objectID)
        default:
            return nil
        }
    }
}
