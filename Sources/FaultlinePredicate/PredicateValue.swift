import Foundation

/// A constant in a predicate: a literal of the format string, an argument, or a
/// substituted variable.
///
/// `bool` compares as the integers 0 and 1 (as SQLite stores it); `int`,
/// `double` and `decimal` compare with one another exactly (see
/// `PredicateNumber`). Equality of the enum itself (`Hashable`) is structural and
/// is what the syntax tree uses; the evaluator's comparisons are in
/// `PredicateValue+Comparison.swift`.
public enum PredicateValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case uuid(UUID)
    case data(Data)
    case array([PredicateValue])
    case objectID(PredicateObjectID)

    /// The kind's name, for error messages: "string", "integer", …
    public var kindName: String {
        switch self {
        case .null: "nil"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "double"
        case .decimal: "decimal"
        case .string: "string"
        case .date: "date"
        case .uuid: "UUID"
        case .data: "data"
        case .array: "array"
        case .objectID: "object ID"
        }
    }
}

/// The identity of a stored object, as a predicate argument (`author == %@`):
/// its entity's name and its primary key.
public struct PredicateObjectID: Hashable, Sendable, CustomStringConvertible {
    public var entityName: String
    public var primaryKey: Int64

    @inlinable
    public init(entityName: String, primaryKey: Int64) {
        self.entityName = entityName
        self.primaryKey = primaryKey
    }

    /// `Entity/42`: the form `CAST("Entity/42", "NSManagedObjectID")` carries.
    public var description: String { "\(entityName)/\(primaryKey)" }

    /// Parses `Entity/42`; nil when the text has no `/`, an empty entity name or
    /// a key that is not an integer.
    public init?(_ text: String) {
        guard let slash = text.lastIndex(of: "/") else { return nil }
        let name = String(text[..<slash])
        guard !name.isEmpty, let key = Int64(text[text.index(after: slash)...]) else { return nil }
        self.init(entityName: name, primaryKey: key)
    }
}

extension PredicateValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: PredicateValue...) { self = .array(elements) }
}

extension PredicateValue {
    /// A decimal from its description ("-1.5", "1E+40"); nil unless the whole
    /// text is a number that prints back the same way.
    static func decimal(fromCanonical text: String) -> PredicateValue? {
        guard let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
            !number.isNaN, number.description == text
        else { return nil }
        return .decimal(number)
    }
}
