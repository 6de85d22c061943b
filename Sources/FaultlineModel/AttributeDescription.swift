// An attribute: a typed value stored in a column (or kept in memory when
// transient), as Core Data's `NSAttributeDescription`.

import Foundation

/// A typed property of an entity.
public class AttributeDescription: PropertyDescription {
    /// The attribute's value type. Core Data's default is `.undefinedAttributeType`,
    /// which is only valid for transient attributes.
    public var attributeType: AttributeType = .undefinedAttributeType {
        didSet { if rejectsMutation("attributeType") { attributeType = oldValue } }
    }

    /// The typed default value for new objects. Checked against `attributeType`
    /// (exact conversions only) when the model is checked.
    public var defaultAttributeValue: AttributeValue? {
        didSet {
            if rejectsMutation("defaultValue") {
                defaultAttributeValue = oldValue
            } else {
                unconvertibleDefaultValueType = nil
            }
        }
    }

    /// Core Data-compatible untyped view of `defaultAttributeValue`.
    ///
    /// Setting a value with no typed form (a custom class, an out-of-range `UInt64`)
    /// does not crash: it is remembered and reported by `checked()` as
    /// `.defaultValueNotConvertible`.
    public var defaultValue: Any? {
        get { defaultAttributeValue?.anyValue }
        set {
            guard !rejectsMutation("defaultValue") else { return }
            guard let newValue else {
                defaultAttributeValue = nil
                return
            }
            if let typed = AttributeValue(any: newValue) {
                defaultAttributeValue = typed
            } else {
                defaultAttributeValue = nil
                unconvertibleDefaultValueType = String(describing: type(of: newValue))
            }
        }
    }

    /// The type name of the last `defaultValue` that could not be converted.
    private(set) var unconvertibleDefaultValueType: String?

    /// For transformable attributes: the name of the transformer, registered in
    /// `ValueTransformerRegistry`, that encodes values to bytes. Part of the hash.
    public var valueTransformerName: String? {
        didSet { if rejectsMutation("valueTransformerName") { valueTransformerName = oldValue } }
    }

    /// The class (Swift type) name of a transformable attribute's values; informative.
    public var attributeValueClassName: String? {
        didSet { if rejectsMutation("attributeValueClassName") { attributeValueClassName = oldValue } }
    }

    /// Binary data may live in a file next to the store instead of the row.
    public var allowsExternalBinaryDataStorage: Bool = false {
        didSet {
            if rejectsMutation("allowsExternalBinaryDataStorage") { allowsExternalBinaryDataStorage = oldValue }
        }
    }

    /// A deleted object's value of this attribute stays in the persistent
    /// history, in its change's tombstone (Core Data's
    /// `preservesValueInHistoryOnDeletion`). Not part of the version hash.
    public var preservesValueInHistoryOnDeletion: Bool = false {
        didSet {
            if rejectsMutation("preservesValueInHistoryOnDeletion") { preservesValueInHistoryOnDeletion = oldValue }
        }
    }

    /// Rules a value must satisfy when saved; checked for consistency by `checked()`.
    public var validationRules: [ValidationRule] = [] {
        didSet { if rejectsMutation("validationRules") { validationRules = oldValue } }
    }

    public override init() {
        super.init()
    }

    /// Makes the attribute a transformable one whose values are `T`, encoded as JSON
    /// by a transformer registered under `T`'s fully qualified name.
    public func setCodableValueType<T: Codable & Sendable>(_ type: T.Type) {
        guard !rejectsMutation("valueTransformerName") else { return }
        let name = ValueTransformerRegistry.registerCodable(type)
        attributeType = .transformableAttributeType
        valueTransformerName = name
        attributeValueClassName = String(reflecting: type)
    }
}
