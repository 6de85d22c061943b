import Foundation

/// A property-list value, typed, for metadata keys Faultline carries without
/// interpreting them.
public indirect enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data(Data)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// Converts what `PropertyListReader` or `PropertyListSerialization`
    /// returns; nil for anything else. A number's Objective-C type tells the
    /// list's kinds apart: a boolean is a `char` (a list has no other), a real a
    /// `double` or `float`, everything else an integer.
    init?(foundation value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let data as Data: self = .data(data)
        case let date as Date: self = .date(date)
        case let number as NSNumber:
            switch UInt8(bitPattern: number.objCType.pointee) {
            case UInt8(ascii: "c"), UInt8(ascii: "B"): self = .boolean(number.boolValue)
            case UInt8(ascii: "d"), UInt8(ascii: "f"): self = .real(number.doubleValue)
            default: self = .integer(number.int64Value)
            }
        case let array as [Any]:
            var items: [PropertyListValue] = []
            for item in array {
                guard let converted = PropertyListValue(foundation: item) else { return nil }
                items.append(converted)
            }
            self = .array(items)
        case let dictionary as [String: Any]:
            var items: [String: PropertyListValue] = [:]
            for (key, item) in dictionary {
                guard let converted = PropertyListValue(foundation: item) else { return nil }
                items[key] = converted
            }
            self = .dictionary(items)
        default:
            return nil
        }
    }

    /// The Foundation object `PropertyListSerialization` writes.
    var foundation: Any {
        switch self {
        case .string(let value): return value
        case .integer(let value): return NSNumber(value: value)
        case .real(let value): return NSNumber(value: value)
        case .boolean(let value): return NSNumber(value: value)
        case .date(let value): return value
        case .data(let value): return value
        case .array(let values): return values.map(\.foundation)
        case .dictionary(let values): return values.mapValues(\.foundation)
        }
    }
}
