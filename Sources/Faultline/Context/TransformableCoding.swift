import Foundation

/// How a transformable attribute's values become bytes, as Core Data decides:
/// the transformer the model names when the app registered one; otherwise —
/// no name, or Core Data's own `NSSecureUnarchiveFromData` /
/// `NSKeyedUnarchiveFromData` — a keyed archive of Foundation values
/// (`FoundationArchive`).
///
/// An archive holding a class Foundation's values do not cover (an app's own,
/// CloudKit's) reads as its archived bytes (`Data`), as do bytes that are not
/// a keyed archive at all; `faultline store inspect` names those classes.
enum TransformableCoding {
    case registered(any AttributeValueTransformer)
    case keyedArchive

    init(_ attribute: CheckedAttribute) {
        // Core Data's own names always mean its archive, whatever is registered.
        if !ValueTransformerRegistry.storesCoreDataArchive(transformerName: attribute.valueTransformerName),
           let name = attribute.valueTransformerName, let transformer = ValueTransformerRegistry.transformer(forName: name) {
            self = .registered(transformer)
        } else {
            self = .keyedArchive
        }
    }

    /// The value the stored bytes stand for.
    func decode(_ data: Data) -> Any? {
        switch self {
        case .registered(let transformer):
            return try? transformer.decode(data)
        case .keyedArchive:
            switch FoundationArchive.decode(data) {
            case .value(let value): return value
            case .unsupportedClass, .malformed: return data
            }
        }
    }

    /// The bytes to store for `value`; nil when it cannot be encoded. A
    /// registered transformer encodes every value, `Data` too (an encrypting
    /// transformer's plaintext), as Core Data's `transformedValue` does.
    func encode(_ value: Any) -> Data? {
        switch self {
        case .registered(let transformer):
            return try? transformer.encode(value)
        case .keyedArchive:
            // What a read gave as bytes (an archive of an app's class) goes back as it was.
            if let data = value as? Data, data.starts(with: FoundationArchive.binaryPropertyListHeader),
               case .unsupportedClass = FoundationArchive.decode(data) { return data }
            return try? FoundationArchive.encode(value)
        }
    }
}
