// Attributes and relationships. Keys follow Core Data's archive: flags are
// present only when true (`NSIsOptional`, `NSIsTransient`, `NSIsIndexed`,
// `NSIsOrdered`, `NSAllowsExternalBinaryDataStorage`); a relationship's
// `NSMaxCount` is 1 when to-one and 0 (unbounded) or the bound when to-many,
// as in Faultline; `NSDeleteRule` numbers the rules as Core Data's enum does.
// `NSMinCount` 1 on a to-one is read as 0, as the model file spells it.

import Foundation
import FaultlineModel

extension ArchivedModelDecoder {
    /// The value class Core Data records for a type it fills in itself; only a
    /// class other than this one is kept, as the model file only names those.
    static let standardValueClassNames: [AttributeType: String] = [
        .integer16AttributeType: "NSNumber", .integer32AttributeType: "NSNumber", .integer64AttributeType: "NSNumber",
        .decimalAttributeType: "NSDecimalNumber", .doubleAttributeType: "NSNumber", .floatAttributeType: "NSNumber",
        .stringAttributeType: "NSString", .booleanAttributeType: "NSNumber", .dateAttributeType: "NSDate",
        .binaryDataAttributeType: "NSData", .UUIDAttributeType: "NSUUID", .URIAttributeType: "NSURL",
    ]

    /// `NSFlagsKey`'s bit for `preservesValueInHistoryOnDeletion`: set on
    /// exactly the attributes that have a tombstone column in the fixture
    /// stores' `ACHANGE` rows.
    static let preservesValueInHistoryFlag: Int64 = 16

    mutating func decodeAttribute(_ object: KeyedArchive.Object, path: String) throws(CompiledModelError) -> AttributeDescription {
        var fields = ArchivedFields(object, path: path)
        let name = try propertyName(&fields)
        let rawType = fields.take("NSAttributeType")
        let code = try attempt(path + "/NSAttributeType") { () throws(KeyedArchive.Failure) in try archive.integer(rawType) } ?? 0
        guard let type = UInt(exactly: code).flatMap(AttributeType.init(rawValue:)) else {
            throw CompiledModelError(.notAModel, "attribute type \(code) of '\(name)' is not a Core Data attribute type",
                                     file: file, path: path + "/NSAttributeType")
        }
        guard type != .compositeAttributeType else {
            throw CompiledModelError(.notAModel, "composite attribute '\(name)' cannot be read from an archive yet", file: file, path: path)
        }
        let attribute = object.className == "NSDerivedAttributeDescription"
            ? try derivedAttribute(named: name, &fields, path: path) : AttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        try decodePropertyFlags(attribute, &fields)
        attribute.allowsExternalBinaryDataStorage = try bool(&fields, "NSAllowsExternalBinaryDataStorage") ?? false
        let flags = try attempt(path + "/NSFlagsKey") { () throws(KeyedArchive.Failure) in try archive.integer(fields.take("NSFlagsKey")) } ?? 0
        attribute.preservesValueInHistoryOnDeletion = flags & Self.preservesValueInHistoryFlag != 0
        if flags & ~Self.preservesValueInHistoryFlag != 0 {
            warn(path + "/NSFlagsKey", "flags \(flags) of attribute '\(name)' are not read by Faultline beyond 16 (preserved in history); the rest are ignored")
        }
        attribute.valueTransformerName = try string(&fields, "NSValueTransformerName")
        let valueClass = try string(&fields, "NSAttributeValueClassName")
        if let valueClass, valueClass != Self.standardValueClassNames[type] {
            attribute.attributeValueClassName = valueClass
        }
        attribute.defaultAttributeValue = try defaultValue(fields.take("NSDefaultValue"), type: type, path: path + "/NSDefaultValue")
        attribute.validationRules = try validationRules(&fields, type: type)
        finish(fields, className: object.className)
        return attribute
    }

    /// A derived attribute's derivation and filter; one Faultline cannot derive
    /// is read as a plain attribute, with the reason.
    private mutating func derivedAttribute(named name: String, _ fields: inout ArchivedFields, path: String) throws(CompiledModelError) -> AttributeDescription {
        // A derived attribute is read-only by nature; its back reference to the
        // entity and Core Data's private `_P` say nothing the model lacks.
        for known in ["NSIsReadOnly", "NSEntity", "_P"] { _ = fields.take(known) }
        if let filter = try attempt(path + "/NSFilteringPredicate", { () throws(KeyedArchive.Failure) in
            try archive.object(fields.take("NSFilteringPredicate"))
        }) {
            warn(path + "/NSFilteringPredicate", "derived attribute '\(name)' has a filtering predicate (\(filter.className)), which Faultline does not model; it derives over every member")
        }
        let derivationPath = path + "/NSDerivationExpression"
        switch try derivation(fields.take("NSDerivationExpression"), path: derivationPath) {
        case .success(let expression):
            let derived = DerivedAttributeDescription()
            derived.derivationExpression = expression.description
            return derived
        case .failure(let unread):
            warn(derivationPath, "derived attribute '\(name)' is read as a plain attribute, its stored value as Core Data left it and not maintained: \(unread.reason)")
            return AttributeDescription()
        }
    }

    mutating func decodeRelationship(_ object: KeyedArchive.Object, path: String) throws(CompiledModelError) -> RelationshipDescription {
        var fields = ArchivedFields(object, path: path)
        let relationship = RelationshipDescription()
        relationship.name = try propertyName(&fields)
        try decodePropertyFlags(relationship, &fields)
        relationship.isOrdered = try bool(&fields, "NSIsOrdered") ?? false
        let minCount = try count(&fields, "NSMinCount") ?? 0
        relationship.maxCount = try count(&fields, "NSMaxCount", unboundedAs: -1) ?? 0
        // Older Core Data archives minimum 1 on every to-one, optional or not;
        // on a to-one it says nothing `NSIsOptional` does not, and model files
        // leave it out.
        relationship.minCount = relationship.maxCount == 1 && minCount == 1 ? 0 : minCount
        if let code = try count(&fields, "NSDeleteRule") {
            guard let rule = UInt(exactly: code).flatMap(DeleteRule.init(rawValue:)) else {
                throw CompiledModelError(.notAModel, "delete rule \(code) of '\(relationship.name)' is not a Core Data delete rule",
                                         file: file, path: path + "/NSDeleteRule")
            }
            relationship.deleteRule = rule
        }
        let destinationReference = fields.take("NSDestinationEntity")
        let inverseReference = fields.take("NSInverseRelationship")
        let destination = try attempt(path + "/NSDestinationEntity") { () throws(KeyedArchive.Failure) in try archive.object(destinationReference) }
        let inverse = try attempt(path + "/NSInverseRelationship") { () throws(KeyedArchive.Failure) in try archive.object(inverseReference) }
        relationshipByUID[object.uid] = relationship
        pendingRelationships.append(PendingRelationship(
            relationship: relationship, path: path,
            destination: destination, destinationName: try string(&fields, "_NSDestinationEntityName"),
            inverse: inverse, inverseName: try string(&fields, "_NSInverseRelationshipName")))
        finish(fields, className: object.className)
        return relationship
    }

    // MARK: - Shared by attributes and relationships

    private func propertyName(_ fields: inout ArchivedFields) throws(CompiledModelError) -> String {
        guard let name = try string(&fields, "NSPropertyName"), !name.isEmpty else {
            throw CompiledModelError(.notAModel, "a property has no name", file: file, path: fields.path)
        }
        return name
    }

    private mutating func decodePropertyFlags(_ property: PropertyDescription, _ fields: inout ArchivedFields) throws(CompiledModelError) {
        property.isOptional = try bool(&fields, "NSIsOptional") ?? false
        property.isTransient = try bool(&fields, "NSIsTransient") ?? false
        property.isIndexed = try bool(&fields, "NSIsIndexed") ?? false
        property.isIndexedBySpotlight = try bool(&fields, "NSIndexedBySpotlight") ?? false
        property.renamingIdentifier = try renamingIdentifier(&fields, name: property.name)
        property.versionHashModifier = try string(&fields, "NSVersionHashModifier")
        property.userInfo = try userInfo(&fields)
    }
}
