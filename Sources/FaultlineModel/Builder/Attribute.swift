// `Attribute`, `Derived` and `Composite`: the builder's attribute declarations.
// Each is a value; modifiers return a changed copy.

/// Declares an attribute: `Attribute("title", .string).required()`.
public struct Attribute: EntityMember, CompositeElement {
    var name: String
    var type: AttributeType
    var isOptional = true
    var isTransient = false
    var isIndexed = false
    var isUnique = false
    var defaultValue: AttributeValue?
    var rules: [ValidationRule] = []
    var transformerName: String?
    var valueClassName: String?
    var allowsExternalStorage = false
    var preservedInHistory = false

    public init(_ name: String, _ type: AttributeType) {
        self.name = name
        self.type = type
    }

    /// Sets whether nil is allowed (attributes are optional by default, as in Core Data).
    public func optional(_ value: Bool = true) -> Attribute { with { $0.isOptional = value } }
    /// Shorthand for `optional(false)`.
    public func required() -> Attribute { optional(false) }
    /// Keeps the attribute in memory only.
    public func transient() -> Attribute { with { $0.isTransient = true } }
    /// Adds a single-column index.
    public func indexed() -> Attribute { with { $0.isIndexed = true } }
    /// Adds a single-attribute uniqueness constraint to the entity.
    public func unique() -> Attribute { with { $0.isUnique = true } }
    /// Sets the default value.
    public func defaultValue(_ value: AttributeValue) -> Attribute { with { $0.defaultValue = value } }
    /// Adds validation rules.
    public func validated(_ rules: ValidationRule...) -> Attribute { with { $0.rules += rules } }
    /// Makes the attribute transformable through the transformer registered as `name`.
    public func transformer(_ name: String) -> Attribute {
        with {
            $0.type = .transformableAttributeType
            $0.transformerName = name
        }
    }
    /// Makes the attribute transformable, storing `T` as JSON.
    public func codable<T: Codable & Sendable>(_ type: T.Type) -> Attribute {
        with {
            $0.type = .transformableAttributeType
            $0.transformerName = ValueTransformerRegistry.registerCodable(type)
            $0.valueClassName = String(reflecting: type)
        }
    }
    /// Names the class a transformable's values are (the model editor's "Custom Class").
    public func valueClass(_ name: String) -> Attribute { with { $0.valueClassName = name } }
    /// Lets binary data live outside the row.
    public func externalStorage() -> Attribute { with { $0.allowsExternalStorage = true } }
    /// Keeps a deleted object's value in its persistent-history tombstone.
    public func preservesValueInHistoryOnDeletion() -> Attribute { with { $0.preservedInHistory = true } }

    private func with(_ change: (inout Attribute) -> Void) -> Attribute {
        var copy = self
        change(&copy)
        return copy
    }

    func configure(_ attribute: AttributeDescription) {
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = isOptional
        attribute.isTransient = isTransient
        attribute.isIndexed = isIndexed
        attribute.defaultAttributeValue = defaultValue
        attribute.validationRules = rules
        attribute.valueTransformerName = transformerName
        attribute.attributeValueClassName = valueClassName
        attribute.allowsExternalBinaryDataStorage = allowsExternalStorage
        attribute.preservesValueInHistoryOnDeletion = preservedInHistory
    }

    public func install(in entity: EntityDescription) {
        let attribute = AttributeDescription()
        configure(attribute)
        entity.properties.append(attribute)
        if isUnique { entity.uniquenessConstraints.append([name]) }
    }

    public func makeElement() -> (description: AttributeDescription, uniqueKeyPaths: [[String]]) {
        let attribute = AttributeDescription()
        configure(attribute)
        return (attribute, isUnique ? [[name]] : [])
    }
}

/// Declares a derived attribute: `Derived("articleCount", .integer64, "articles.@count")`.
public struct Derived: EntityMember {
    let attribute: Attribute
    let expression: String

    public init(_ name: String, _ type: AttributeType, _ expression: String) {
        self.attribute = Attribute(name, type)
        self.expression = expression
    }

    public func install(in entity: EntityDescription) {
        let derived = DerivedAttributeDescription()
        attribute.configure(derived)
        derived.derivationExpression = expression
        entity.properties.append(derived)
    }
}

/// Declares a composite attribute: `Composite("colorScheme") { Attribute("primary", .string) }`.
public struct Composite: EntityMember, CompositeElement {
    let name: String
    let isOptional: Bool
    let elements: [any CompositeElement]

    public init(_ name: String, optional: Bool = true, @CompositeBuilder _ elements: () -> [any CompositeElement]) {
        self.name = name
        self.isOptional = optional
        self.elements = elements()
    }

    public func install(in entity: EntityDescription) {
        let (composite, uniqueKeyPaths) = makeElement()
        entity.properties.append(composite)
        for keyPath in uniqueKeyPaths {
            entity.uniquenessConstraints.append([keyPath.joined(separator: ".")])
        }
    }

    public func makeElement() -> (description: AttributeDescription, uniqueKeyPaths: [[String]]) {
        let composite = CompositeAttributeDescription()
        composite.name = name
        composite.isOptional = isOptional
        var uniqueKeyPaths: [[String]] = []
        composite.elements = elements.map { element in
            let (description, paths) = element.makeElement()
            uniqueKeyPaths += paths.map { [name] + $0 }
            return description
        }
        return (composite, uniqueKeyPaths)
    }
}
