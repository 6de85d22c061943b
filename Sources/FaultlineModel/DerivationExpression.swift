import Foundation
// The typed form of a derived attribute's expression. Core Data accepts a small
// set of expressions for derived attributes; Faultline accepts the same strings
// (plus @min/@max/@avg) and parses them once, when the model is checked, so the
// schema compiler works from this enum and never from text.

/// An aggregate function over a to-many relationship.
public enum AggregateFunction: String, Hashable, Sendable, CaseIterable {
    case count, sum, min, max, avg
}

/// A parsed derivation expression.
public enum DerivationExpression: Hashable, Sendable, CustomStringConvertible {
    /// A key path through to-one relationships (or composite attributes) ending at
    /// an attribute: `category.name`, `author.address.city`, or just `name`.
    case keyPath([String])
    /// An aggregate over a to-many relationship: `articles.@count`,
    /// `articles.@sum.views` (also written `@sum.articles.views`).
    /// `attribute` is `nil` exactly for `.count`.
    case aggregate(function: AggregateFunction, relationship: String, attribute: String?)
    /// `now()`: the time of the save.
    case now
    /// `canonical:(keyPath)`: lower-cased, diacritics removed (search column).
    case canonical([String])
    /// `lowercase:(keyPath)`.
    case lowercase([String])
    /// `uppercase:(keyPath)`.
    case uppercase([String])

    /// Parses Core Data's expression syntax. Whitespace between tokens is ignored.
    public init(parsing text: String) throws(DerivationParseError) {
        var parser = DerivationExpressionParser(text)
        self = try parser.parseExpression()
    }

    /// The canonical spelling, which parses back to the same value.
    public var description: String {
        switch self {
        case .keyPath(let path): path.joined(separator: ".")
        case let .aggregate(function, relationship, attribute):
            if let attribute {
                "\(relationship).@\(function.rawValue).\(attribute)"
            } else {
                "\(relationship).@\(function.rawValue)"
            }
        case .now: "now()"
        case .canonical(let path): "canonical:(\(path.joined(separator: ".")))"
        case .lowercase(let path): "lowercase:(\(path.joined(separator: ".")))"
        case .uppercase(let path): "uppercase:(\(path.joined(separator: ".")))"
        }
    }
}

/// Why a derivation expression did not parse.
public struct DerivationParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Position of the problem, in Unicode scalars from the start of the text.
    public let offset: Int
    /// What the parser expected there.
    public let expected: String
    /// What it found instead.
    public let found: String

    public var description: String {
        "at offset \(offset): expected \(expected), found \(found)"
    }
}

extension DerivationParseError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
