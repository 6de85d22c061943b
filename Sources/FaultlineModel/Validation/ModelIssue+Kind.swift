// The typed kinds of model problems, with their human-readable messages.

extension ModelIssue {
    /// What is wrong. Associated values carry the offending names and numbers.
    public enum Kind: Hashable, Sendable {
        // Names
        case missingName
        case invalidIdentifier(String)
        case reservedName(String)
        case duplicateEntityName(String)
        /// Two root entities whose names differ only in case: one table (`Z` + the name in capitals) for both.
        case tableNameClash(String, String)
        case duplicatePropertyName(String)
        case duplicateFetchIndexName(String)

        // Ownership and inheritance
        case entityInAnotherModel
        case propertyInAnotherEntity
        case inheritanceCycle(String)
        case superentityNotInModel(String)
        case subentityNotInModel(String)
        case subentityOfSeveralEntities(String)

        // Attributes
        case unsupportedAttributeType(AttributeType)
        case defaultValueNotConvertible(typeName: String)
        case defaultValueTypeMismatch(AttributeType)
        case unregisteredTransformer(String)
        case compositeWithoutElements
        case compositeContainsRelationship(String)
        case compositeContainsDerivedAttribute(String)
        case compositeCycle(String)
        case unknownCompositeDefaultKey(String)

        // Validation rules
        case ruleDoesNotApply(ValidationRule, AttributeType)
        case numericBoundsInverted(minimum: NumericBound, maximum: NumericBound)
        case negativeLength(Int)
        case lengthBoundsInverted(minimum: Int, maximum: Int)
        case dateBoundsInverted
        case invalidRegularExpression(String)

        // Relationships
        case missingDestinationEntity
        case destinationEntityNotInModel(String)
        case unknownInverseRelationship(String)
        case inverseNotReciprocal(inverse: String)
        case inverseEntityMismatch(inverse: String)
        case negativeCount(min: Int, max: Int)
        case minCountExceedsMaxCount(min: Int, max: Int)

        // Constraints and indexes
        case emptyConstraint
        case constraintUnknownProperty(String)
        case constraintOnToManyRelationship(String)
        case constraintOnUnsupportedProperty(String)
        case emptyFetchIndex(String)
        case fetchIndexUnknownProperty(index: String, property: String)
        case fetchIndexOnUnsupportedProperty(index: String, property: String)
        case emptyCompoundIndex
        case compoundIndexUnknownProperty(String)
        case compoundIndexOnUnsupportedProperty(String)

        // Derived attributes
        case missingDerivation
        case derivationSyntax(DerivationParseError)
        case derivationUnknownKey(String)
        case derivationThroughToMany(String)
        case derivationThroughAttribute(String)
        case derivationKeyPathNotAttribute(String)
        case derivationAggregateOverNonToMany(String)
        case derivationAggregateOverNonNumeric(function: AggregateFunction, keyPath: String)
        case derivationStringFunctionOverNonString(String)
        case derivationResultTypeMismatch(expression: String, resultType: AttributeType)
        case derivationOverItself
    }
}

extension ModelIssue.Kind {
    /// A sentence describing the problem.
    public var message: String {
        switch self {
        case .missingName: "has no name"
        case .invalidIdentifier(let n): "name '\(n)' is not an identifier (ASCII letters, digits, '_', not starting with a digit)"
        case .reservedName(let n): "name '\(n)' is reserved by the store or by ManagedObject"
        case .duplicateEntityName(let n): "entity name '\(n)' is used more than once"
        case .tableNameClash(let first, let second):
            "entity names '\(first)' and '\(second)' differ only in case: both would be stored in the table Z\(second.uppercased())"
        case .duplicatePropertyName(let n): "property name '\(n)' is used more than once in the entity or its ancestors"
        case .duplicateFetchIndexName(let n): "fetch index name '\(n)' is used more than once"
        case .entityInAnotherModel: "entity belongs to another model"
        case .propertyInAnotherEntity: "property is listed by another entity too"
        case .inheritanceCycle(let n): "making '\(n)' a sub-entity would create an inheritance cycle"
        case .superentityNotInModel(let n): "superentity '\(n)' is not in the model"
        case .subentityNotInModel(let n): "sub-entity '\(n)' is not in the model"
        case .subentityOfSeveralEntities(let n): "sub-entity '\(n)' is listed by several entities"
        case .unsupportedAttributeType(let t): "attribute type \(t) cannot be used here"
        case .defaultValueNotConvertible(let t): "default value of type \(t) has no typed form"
        case .defaultValueTypeMismatch(let t): "default value does not fit attribute type \(t)"
        case .unregisteredTransformer(let n): "value transformer '\(n)' is not registered"
        case .compositeWithoutElements: "composite attribute has no elements"
        case .compositeContainsRelationship(let n): "composite attribute contains relationship '\(n)'"
        case .compositeContainsDerivedAttribute(let n): "composite attribute contains derived attribute '\(n)'"
        case .compositeCycle(let n): "composite element '\(n)' would make the composite contain itself"
        case .unknownCompositeDefaultKey(let k): "default value names unknown composite element '\(k)'"
        case let .ruleDoesNotApply(rule, type): "validation rule \(rule) does not apply to type \(type)"
        case let .numericBoundsInverted(min, max): "minimum value \(min) is greater than maximum value \(max)"
        case .negativeLength(let n): "length bound \(n) is negative"
        case let .lengthBoundsInverted(min, max): "minimum length \(min) is greater than maximum length \(max)"
        case .dateBoundsInverted: "earliest date is after latest date"
        case .invalidRegularExpression(let p): "regular expression '\(p)' does not compile"
        case .missingDestinationEntity: "relationship has no destination entity"
        case .destinationEntityNotInModel(let n): "destination entity '\(n)' is not in the model"
        case .unknownInverseRelationship(let n): "inverse relationship '\(n)' does not exist on the destination"
        case .inverseNotReciprocal(let n): "inverse '\(n)' does not name this relationship as its inverse"
        case .inverseEntityMismatch(let n): "inverse '\(n)' does not connect the destination back to this entity"
        case let .negativeCount(min, max): "relationship counts min \(min), max \(max) must not be negative"
        case let .minCountExceedsMaxCount(min, max): "minCount \(min) is greater than maxCount \(max)"
        case .emptyConstraint: "uniqueness constraint names no property"
        case .constraintUnknownProperty(let n): "uniqueness constraint names unknown property '\(n)'"
        case .constraintOnToManyRelationship(let n): "uniqueness constraint names to-many relationship '\(n)'"
        case .constraintOnUnsupportedProperty(let n): "uniqueness constraint names '\(n)', which is transient, derived or composite"
        case .emptyFetchIndex(let n): "fetch index '\(n)' has no elements"
        case let .fetchIndexUnknownProperty(i, p): "fetch index '\(i)' names unknown property '\(p)'"
        case let .fetchIndexOnUnsupportedProperty(i, p): "fetch index '\(i)' names '\(p)', which is transient or composite"
        case .emptyCompoundIndex: "compound index names no property"
        case .compoundIndexUnknownProperty(let n): "compound index names unknown property '\(n)'"
        case .compoundIndexOnUnsupportedProperty(let n): "compound index names '\(n)', which is transient, composite or to-many"
        case .missingDerivation: "derived attribute has no derivation expression"
        case .derivationSyntax(let e): "derivation does not parse \(e)"
        case .derivationUnknownKey(let k): "derivation names unknown key '\(k)'"
        case .derivationThroughToMany(let k): "derivation goes through to-many '\(k)' without an aggregate"
        case .derivationThroughAttribute(let k): "derivation goes through attribute '\(k)', which has no properties"
        case .derivationKeyPathNotAttribute(let k): "derivation key path '\(k)' does not end at an attribute"
        case .derivationAggregateOverNonToMany(let k): "aggregate over '\(k)', which is not a to-many relationship"
        case let .derivationAggregateOverNonNumeric(f, k): "@\(f.rawValue) over '\(k)', which is not \(f == .min || f == .max ? "numeric or a date" : "numeric")"
        case .derivationStringFunctionOverNonString(let k): "string function over '\(k)', which is not a string attribute"
        case let .derivationResultTypeMismatch(e, t): "'\(e)' cannot produce a value of type \(t)"
        case .derivationOverItself: "derivation refers to the derived attribute itself"
        }
    }
}
