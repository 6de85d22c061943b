// A typed attribute value. The model uses it for default values and validation;
// later layers use it as the value a row column decodes to. Keeping values typed
// (instead of `Any`) means no boxing on hot paths and exact comparisons for
// integers and decimals.

import Foundation

/// A value an attribute can hold.
///
/// Integers of every width are carried as `Int64`, `Float` as `Double`;
/// transformable attributes carry their encoded bytes as `.data`; composite
/// attributes carry one value per element name.
public enum AttributeValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case uri(URL)
    case composite([String: AttributeValue])

    /// The value as a plain Swift value (`Int64`, `Double`, `Decimal`, `String`,
    /// `Bool`, `Date`, `Data`, `UUID`, `URL`, `[String: Any]`), `nil` for `.null`.
    public var anyValue: Any? {
        switch self {
        case .null: nil
        case .integer(let v): v
        case .double(let v): v
        case .decimal(let v): v
        case .string(let v): v
        case .bool(let v): v
        case .date(let v): v
        case .data(let v): v
        case .uuid(let v): v
        case .uri(let v): v
        case .composite(let elements): elements.compactMapValues { $0.anyValue }
        }
    }

    /// Converts a Core Data-style `Any` value; `nil` when the value has no typed form
    /// (the model then reports the default value as not convertible).
    public init?(any value: Any) {
        switch value {
        case let v as AttributeValue: self = v
        case is NSNull: self = .null
        case let v as Bool: self = .bool(v)
        case let v as Int: self = .integer(Int64(v))
        case let v as Int8: self = .integer(Int64(v))
        case let v as Int16: self = .integer(Int64(v))
        case let v as Int32: self = .integer(Int64(v))
        case let v as Int64: self = .integer(v)
        case let v as UInt8: self = .integer(Int64(v))
        case let v as UInt16: self = .integer(Int64(v))
        case let v as UInt32: self = .integer(Int64(v))
        case let v as UInt:
            guard let exact = Int64(exactly: v) else { return nil }
            self = .integer(exact)
        case let v as UInt64:
            guard let exact = Int64(exactly: v) else { return nil }
            self = .integer(exact)
        case let v as Double: self = .double(v)
        case let v as Float: self = .double(Double(v))
        case let v as Decimal: self = .decimal(v)
        case let v as String: self = .string(v)
        case let v as Date: self = .date(v)
        case let v as Data: self = .data(v)
        case let v as UUID: self = .uuid(v)
        case let v as URL: self = .uri(v)
        case let v as [String: Any]:
            var elements: [String: AttributeValue] = [:]
            for (key, element) in v {
                guard let converted = AttributeValue(any: element) else { return nil }
                elements[key] = converted
            }
            self = .composite(elements)
        case let v as NSDecimalNumber: self = .decimal(v.decimalValue)
        case let v as NSNumber:
            let integral = v.int64Value
            self = Double(integral) == v.doubleValue ? .integer(integral) : .double(v.doubleValue)
        default: return nil
        }
    }
}
