// The storage types an attribute can have, named and numbered as Core Data's
// `NSAttributeType` so that ported code (`.stringAttributeType`) compiles as is.

/// The type of an attribute's values.
///
/// Raw values are Core Data's, so a type read from a Core Data model file or store
/// metadata maps one to one. `.undefinedAttributeType` is only valid for transient
/// attributes; `.objectIDAttributeType` only appears in fetch results and is
/// rejected in a model.
public enum AttributeType: UInt, Sendable, Hashable, CaseIterable {
    case undefinedAttributeType = 0
    case integer16AttributeType = 100
    case integer32AttributeType = 200
    case integer64AttributeType = 300
    case decimalAttributeType = 400
    case doubleAttributeType = 500
    case floatAttributeType = 600
    case stringAttributeType = 700
    case booleanAttributeType = 800
    case dateAttributeType = 900
    case binaryDataAttributeType = 1000
    case UUIDAttributeType = 1100
    case URIAttributeType = 1200
    case transformableAttributeType = 1800
    case objectIDAttributeType = 2000
    case compositeAttributeType = 2100

    /// True for the three integer widths.
    public var isInteger: Bool {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: true
        default: false
        }
    }

    /// True for every type numeric validation rules and `@sum`/`@avg` apply to.
    public var isNumeric: Bool {
        switch self {
        case .decimalAttributeType, .doubleAttributeType, .floatAttributeType: true
        default: isInteger
        }
    }

    /// The inclusive range an integer attribute can hold, `nil` for other types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16AttributeType: Int64(Int16.min)...Int64(Int16.max)
        case .integer32AttributeType: Int64(Int32.min)...Int64(Int32.max)
        case .integer64AttributeType: Int64.min...Int64.max
        default: nil
        }
    }
}

// Short spellings for the declarative builder: `Attribute("name", .string)`.
extension AttributeType {
    public static let integer16 = AttributeType.integer16AttributeType
    public static let integer32 = AttributeType.integer32AttributeType
    public static let integer64 = AttributeType.integer64AttributeType
    public static let decimal = AttributeType.decimalAttributeType
    public static let double = AttributeType.doubleAttributeType
    public static let float = AttributeType.floatAttributeType
    public static let string = AttributeType.stringAttributeType
    public static let boolean = AttributeType.booleanAttributeType
    public static let date = AttributeType.dateAttributeType
    public static let binaryData = AttributeType.binaryDataAttributeType
    public static let uuid = AttributeType.UUIDAttributeType
    public static let uri = AttributeType.URIAttributeType
    public static let transformable = AttributeType.transformableAttributeType
}
