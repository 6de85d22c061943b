import FaultlineSupport
// Matching a value to an attribute type. Defaults are often written loosely in
// Core Data code (`defaultValue = 0` on a Double attribute); the model accepts a
// value when it converts to the attribute's type *exactly*, and reports it
// otherwise.

import Foundation

extension AttributeValue {
    /// The value converted exactly to `type`, or `nil` when it does not fit
    /// (wrong kind, integer out of range, a fractional number for an integer type).
    ///
    /// `.null` fits every type. Composite values are checked element by element by
    /// the model validator, which knows the elements; here only their shape is checked.
    public func coerced(to type: AttributeType) -> AttributeValue? {
        if case .null = self { return self }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return coercedToInteger(in: type.integerRange ?? Int64.min...Int64.max)
        case .decimalAttributeType:
            switch self {
            case .decimal: return self
            case .integer(let v): return .decimal(Decimal(v))
            case .double(let v):
                guard let exact = Decimal(shortestOf: v) else { return nil }
                return .decimal(exact)
            default: return nil
            }
        case .doubleAttributeType, .floatAttributeType:
            switch self {
            case .double: return self
            case .integer(let v):
                guard let exact = Double(exactly: v) else { return nil }
                return .double(exact)
            default: return nil
            }
        case .booleanAttributeType:
            switch self {
            case .bool: return self
            case .integer(let v) where v == 0 || v == 1: return .bool(v == 1)
            default: return nil
            }
        case .stringAttributeType:
            if case .string = self { return self }
            return nil
        case .dateAttributeType:
            if case .date = self { return self }
            return nil
        case .binaryDataAttributeType, .transformableAttributeType:
            if case .data = self { return self }
            return nil
        case .UUIDAttributeType:
            if case .uuid = self { return self }
            return nil
        case .URIAttributeType:
            if case .uri = self { return self }
            return nil
        case .compositeAttributeType:
            if case .composite = self { return self }
            return nil
        case .undefinedAttributeType, .objectIDAttributeType:
            return nil
        }
    }

    private func coercedToInteger(in range: ClosedRange<Int64>) -> AttributeValue? {
        switch self {
        case .integer(let v):
            return range.contains(v) ? self : nil
        case .double(let v):
            guard let exact = Int64(exactly: v), range.contains(exact) else { return nil }
            return .integer(exact)
        case .bool(let v):
            return .integer(v ? 1 : 0)
        default:
            return nil
        }
    }
}
