import Foundation

/// The canonical format string of a tree. Parsing it gives back an equal tree
/// (for every tree the parser builds), with no arguments: every constant is
/// printed as a literal or a `CAST`.
///
/// Canonical choices: keywords and operators upper case or symbolic (`==`,
/// `!=`, `<=`, `>=`, `AND`, `OR`, `NOT`, `ANY`); options as `[c]`, `[d]`,
/// `[cd]`; strings double-quoted; a nested AND or OR in parentheses; reserved
/// words in key paths escaped with `#`.
extension PredicateNode: CustomStringConvertible {
    public var description: String {
        switch self {
        case .constant(let value):
            value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let operand):
            "NOT " + operand.parenthesizedIfCompound
        // An empty compound is NSCompoundPredicate's: AND of nothing holds, OR of nothing does not.
        case .and(let terms) where terms.isEmpty:
            "TRUEPREDICATE"
        case .or(let terms) where terms.isEmpty:
            "FALSEPREDICATE"
        case .and(let terms):
            terms.map(\.parenthesizedIfCompound).joined(separator: " AND ")
        case .or(let terms):
            terms.map(\.parenthesizedIfCompound).joined(separator: " OR ")
        case .comparison(let comparison):
            comparison.description
        }
    }

    private var parenthesizedIfCompound: String {
        switch self {
        case .and, .or: "(\(description))"
        case .constant, .not, .comparison: description
        }
    }
}

extension PredicateComparison: CustomStringConvertible {
    public var description: String {
        let modifier = self.modifier == .direct ? "" : self.modifier.rawValue + " "
        return "\(modifier)\(left) \(operation.rawValue)\(options) \(right)"
    }
}

extension PredicateComparisonOptions: CustomStringConvertible {
    /// `""`, `"[c]"`, `"[d]"` or `"[cd]"`.
    public var description: String {
        let letters = (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "")
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}

extension FetchExpression: CustomStringConvertible {
    public var description: String {
        switch self {
        case .value(let value):
            value.description
        case .keyPath(let path):
            path.description
        case .list(let elements):
            "{" + elements.map(\.description).joined(separator: ", ") + "}"
        case .aggregate(let aggregate, let collection, let keyPath):
            ([collection.description, aggregate.rawValue] + keyPath.map(PredicateKeyPath.escaped)).joined(separator: ".")
        case .subquery(let collection, let variable, let predicate):
            "SUBQUERY(\(collection), $\(variable), \(predicate))"
        case .function(let function, let arguments):
            if let infix = function.infix, let precedence = function.precedence, arguments.count == 2 {
                // Parentheses only where precedence needs them, so the text
                // parses back to the same tree at the same nesting depth.
                Self.operand(arguments[0], parenthesized: (arguments[0].precedence ?? .max) < precedence
                    || (function == .power && arguments[0].precedence == precedence))
                    + " \(infix) "
                    + Self.operand(arguments[1], parenthesized: (arguments[1].precedence ?? .max) < precedence
                        || (function != .power && arguments[1].precedence == precedence))
            } else if function == .element, arguments.count == 2, case .value(.int(let index)) = arguments[1],
                      index >= -1 {
                "\(arguments[0])[\(index == 0 ? "FIRST" : index == -1 ? "LAST" : String(index))]"
            } else if let type = function.castType, arguments.count == 1 {
                "CAST(\(arguments[0]), \"\(type)\")"
            } else {
                function.rawValue + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
            }
        case .conditional(let predicate, let then, let otherwise):
            "TERNARY(\(predicate), \(then), \(otherwise))"
        }
    }
}

extension FetchExpression {
    /// The precedence of the operator at the top of this expression; nil for an operand that is not one.
    var precedence: Int? {
        if case .function(let function, let arguments) = self, arguments.count == 2, function.infix != nil {
            return function.precedence
        }
        return nil
    }

    fileprivate static func operand(_ expression: FetchExpression, parenthesized: Bool) -> String {
        parenthesized ? "(\(expression))" : expression.description
    }
}

extension PredicateKeyPath: CustomStringConvertible {
    public var description: String {
        let root = variable.map { "$" + $0 }
        if components.isEmpty { return root ?? "SELF" }
        return ((root.map { [$0] } ?? []) + components.map(Self.escaped)).joined(separator: ".")
    }

    /// A key as written in a format string: `#`-escaped when it is a reserved
    /// word or does not read as an identifier (`#100`).
    static func escaped(_ key: String) -> String {
        PredicateKeywords.isReserved(key) || !PredicateKeywords.isIdentifier(key) ? "#" + key : key
    }
}

extension PredicateValue: CustomStringConvertible {
    /// The value as a literal of the format string.
    public var description: String {
        switch self {
        case .null: "nil"
        case .bool(let value): value ? "TRUE" : "FALSE"
        case .int(let value): String(value)
        case .double(let value):
            value.isFinite ? String(value) : "CAST(\(Self.quoted(String(value))), \"NSNumber\")"
        case .decimal(let value): "CAST(\(Self.quoted(value.description)), \"NSDecimalNumber\")"
        case .string(let value): Self.quoted(value)
        case .date(let value): "CAST(\(value.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .uuid(let value): "CAST(\(Self.quoted(value.uuidString)), \"NSUUID\")"
        case .data(let value): "CAST(\(Self.quoted(value.base64EncodedString())), \"NSData\")"
        case .array(let values): "{" + values.map(\.description).joined(separator: ", ") + "}"
        case .objectID(let id): "CAST(\(Self.quoted(id.description)), \"NSManagedObjectID\")"
        }
    }

    /// `text` in double quotes with `"`, `\` and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16, uppercase: true)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
