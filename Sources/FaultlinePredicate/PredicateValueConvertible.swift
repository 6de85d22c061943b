import Foundation

/// A Swift value that can be a predicate argument (`%@`, `%d`, …) or a
/// substituted variable.
///
/// Conversion throws `FetchPredicateError.unsupportedArgumentType` when the value
/// does not fit (a `UInt64` above `Int64.max`), never traps.
public protocol PredicateValueConvertible {
    func predicateValue() throws(FetchPredicateError) -> PredicateValue
}

extension PredicateValue: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { self }

    /// Converts an argument of any type: `nil` and empty optionals become
    /// `.null`, `PredicateValueConvertible` values convert themselves, arrays
    /// and sets convert element by element. Anything else throws
    /// `unsupportedArgumentType` naming the argument's position and type.
    /// Arrays nested deeper than `PredicateDepth.limit` throw `nestingTooDeep`
    /// (without an offset) before the recursion gets deep.
    public init(converting value: Any?, argumentIndex: Int = 0) throws(FetchPredicateError) {
        self = try Self.converting(value, argumentIndex: argumentIndex, depth: 0)
    }

    private static func converting(_ value: Any?, argumentIndex: Int, depth: Int) throws(FetchPredicateError) -> PredicateValue {
        // NSNull is nil, as in NSPredicate (and in Faultline's own dictionary results and committed values).
        guard let value = unwrapped(value), !(value is NSNull) else { return .null }
        if let convertible = value as? any PredicateValueConvertible {
            do {
                return try convertible.predicateValue()
            } catch {
                throw error.renumbered(argumentIndex: argumentIndex)
            }
        }
        if let bridged = foundationObjectBridged(value) {
            return try converting(bridged, argumentIndex: argumentIndex, depth: depth)
        }
        guard let array = value as? [Any] else {
            throw .unsupportedArgumentType(index: argumentIndex, type: String(describing: type(of: value)))
        }
        let inner = try PredicateDepth.deeper(depth)
        var elements: [PredicateValue] = []
        for element in array {
            elements.append(try converting(element, argumentIndex: argumentIndex, depth: inner))
        }
        return .array(elements)
    }

    /// A Foundation object Core Data code passes for `%@` (`date as NSDate`,
    /// an `NSString`, `NSUUID`, `NSData`, `NSURL`, an `NSSet` or
    /// `NSOrderedSet` for IN) as the Swift value it bridges to; nil for
    /// anything else.
    private static func foundationObjectBridged(_ value: Any) -> Any? {
        guard value is NSObject else { return nil }
        if let set = value as? NSSet { return set.allObjects }
        if let ordered = value as? NSOrderedSet { return ordered.array }
        if let string = value as? String { return string }
        if let date = value as? Date { return date }
        if let uuid = value as? UUID { return uuid }
        if let data = value as? Data { return data }
        if let url = value as? URL { return url }
        return nil
    }

    /// The value inside any number of optional layers, or nil for an empty one.
    private static func unwrapped(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        guard let child = mirror.children.first else { return nil }
        return unwrapped(child.value)
    }
}

extension String: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { .string(self) }
}

extension Substring: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { .string(String(self)) }
}

extension Bool: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { .bool(self) }
}

extension Double: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { .double(self) }
}

extension Float: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { .double(Double(self)) }
}

extension Decimal: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { .decimal(self) }
}

extension Date: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { .date(self) }
}

extension UUID: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { .uuid(self) }
}

/// A URL is the text a URI attribute is stored as (`absoluteString`), so
/// `link == %@` with a `URL` argument compares as Core Data's does.
extension URL: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { .string(absoluteString) }
}

/// What Core Data code passes most (`NSNumber(value: siteNumber)`, a value
/// read through `NSNumber`): a boolean as `.bool`, a decimal number as
/// `.decimal`, a float or double as `.double`, any integer as `.int` when it
/// fits in `Int64`.
extension NSNumber: PredicateValueConvertible {
    public func predicateValue() throws(FetchPredicateError) -> PredicateValue {
        // Foundation's two booleans are shared instances, whatever their type encoding says.
        if self === NSNumber(value: true) { return .bool(true) }
        if self === NSNumber(value: false) { return .bool(false) }
        if let decimal = self as? NSDecimalNumber { return .decimal(decimal.decimalValue) }
        switch String(cString: objCType) {
        case "f", "d":
            return .double(doubleValue)
        case "Q", "L":
            guard let value = Int64(exactly: uint64Value) else {
                throw .unsupportedArgumentType(index: 0, type: "NSNumber \(uint64Value) (beyond Int64)")
            }
            return .int(value)
        default:
            return .int(int64Value)
        }
    }
}

extension Data: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { .data(self) }
}

extension PredicateObjectID: PredicateValueConvertible {
    public func predicateValue() -> PredicateValue { .objectID(self) }
}

/// Every fixed-width integer converts to `.int` when it fits in `Int64`.
extension PredicateValueConvertible where Self: BinaryInteger {
    public func predicateValue() throws(FetchPredicateError) -> PredicateValue {
        guard let value = Int64(exactly: self) else {
            throw .unsupportedArgumentType(index: 0, type: "\(Self.self) \(self) (beyond Int64)")
        }
        return .int(value)
    }
}

extension Int: PredicateValueConvertible {}
extension Int8: PredicateValueConvertible {}
extension Int16: PredicateValueConvertible {}
extension Int32: PredicateValueConvertible {}
extension Int64: PredicateValueConvertible {}
extension UInt: PredicateValueConvertible {}
extension UInt8: PredicateValueConvertible {}
extension UInt16: PredicateValueConvertible {}
extension UInt32: PredicateValueConvertible {}
extension UInt64: PredicateValueConvertible {}

extension Optional: PredicateValueConvertible where Wrapped: PredicateValueConvertible {
    public func predicateValue() throws(FetchPredicateError) -> PredicateValue {
        switch self {
        case .none: .null
        case .some(let wrapped): try wrapped.predicateValue()
        }
    }
}

extension Array: PredicateValueConvertible where Element: PredicateValueConvertible {
    public func predicateValue() throws(FetchPredicateError) -> PredicateValue {
        var elements: [PredicateValue] = []
        elements.reserveCapacity(count)
        for element in self { elements.append(try element.predicateValue()) }
        return .array(elements)
    }
}

extension Set: PredicateValueConvertible where Element: PredicateValueConvertible {
    public func predicateValue() throws(FetchPredicateError) -> PredicateValue {
        try Array(self).predicateValue()
    }
}
