// Validation rules: the checks Core Data's model editor offers on attributes
// (numeric min/max, string length, regular expression, date min/max). They are
// part of the model and of `CheckedModel`; a later layer applies them at save.
// Not part of the version hash: they do not change storage.

import Foundation

/// A numeric bound, kept in the form it was written so comparisons stay exact:
/// `Int64` and `Decimal` bounds are never routed through `Double`.
public enum NumericBound: Hashable, Sendable, CustomStringConvertible {
    case integer(Int64)
    case decimal(Decimal)
    case double(Double)

    /// The numeric view of a value, `nil` for non-numeric values.
    public init?(_ value: AttributeValue) {
        switch value {
        case .integer(let v): self = .integer(v)
        case .decimal(let v): self = .decimal(v)
        case .double(let v): self = .double(v)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .integer(let v): "\(v)"
        case .decimal(let v): "\(v)"
        case .double(let v): "\(v)"
        }
    }
}

/// A constraint an attribute's value must satisfy when saved. `nil` values are
/// not checked by rules (optionality is a separate check).
public enum ValidationRule: Hashable, Sendable, CustomStringConvertible {
    /// Numeric value ≥ bound (inclusive).
    case minimumValue(NumericBound)
    /// Numeric value ≤ bound (inclusive).
    case maximumValue(NumericBound)
    /// String length ≥ bound, in UTF-16 code units (as NSString's `length`).
    case minimumLength(Int)
    /// String length ≤ bound, in UTF-16 code units (as NSString's `length`).
    case maximumLength(Int)
    /// The whole string must match this ICU regular expression (NSRegularExpression).
    case pattern(String)
    /// Date ≥ bound (inclusive).
    case earliestDate(Date)
    /// Date ≤ bound (inclusive).
    case latestDate(Date)

    public var description: String {
        switch self {
        case .minimumValue(let b): "minimum value \(b)"
        case .maximumValue(let b): "maximum value \(b)"
        case .minimumLength(let n): "minimum length \(n)"
        case .maximumLength(let n): "maximum length \(n)"
        case .pattern(let p): "pattern \(p)"
        case .earliestDate(let d): "earliest date \(d)"
        case .latestDate(let d): "latest date \(d)"
        }
    }

    /// Whether the rule can constrain attributes of `type`.
    public func applies(to type: AttributeType) -> Bool {
        switch self {
        case .minimumValue, .maximumValue: type.isNumeric
        case .minimumLength, .maximumLength, .pattern: type == .stringAttributeType
        case .earliestDate, .latestDate: type == .dateAttributeType
        }
    }
}
