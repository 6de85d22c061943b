import Foundation
@testable import Faultline

/// A defect inserted on purpose into a random model, and the issue it must cause.
struct InsertedDefect {
    let label: String
    let insert: (ManagedObjectModel, EntityDescription) -> Void
    let expected: (ModelIssue.Kind) -> Bool

    static func attribute(_ name: String, _ type: AttributeType) -> AttributeDescription {
        let attribute = AttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        return attribute
    }

    static func relationship(_ name: String, to destination: EntityDescription?, maxCount: Int = 1) -> RelationshipDescription {
        let relationship = RelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = maxCount
        return relationship
    }

    static func derived(_ name: String, _ type: AttributeType, _ expression: String) -> DerivedAttributeDescription {
        let derived = DerivedAttributeDescription()
        derived.name = name
        derived.attributeType = type
        derived.derivationExpression = expression
        return derived
    }

    /// Every defect the fuzz test plants; `outsider` is an entity outside the model.
    static func all(outsider: EntityDescription) -> [InsertedDefect] {
        [
            InsertedDefect(label: "duplicate entity", insert: { model, _ in
                let a = EntityDescription(), b = EntityDescription()
                a.name = "Twin"; b.name = "Twin"
                model.entities += [a, b]
            }, expected: { $0 == .duplicateEntityName("Twin") }),
            InsertedDefect(label: "invalid entity name", insert: { model, _ in
                let bad = EntityDescription()
                bad.name = "9Lives"
                model.entities.append(bad)
            }, expected: { $0 == .invalidIdentifier("9Lives") }),
            InsertedDefect(label: "reserved property name", insert: { _, entity in
                entity.properties.append(attribute("objectID", .stringAttributeType))
            }, expected: { $0 == .reservedName("objectID") }),
            InsertedDefect(label: "duplicate property", insert: { _, entity in
                entity.properties += [attribute("zzTwin", .stringAttributeType), attribute("zzTwin", .dateAttributeType)]
            }, expected: { $0 == .duplicatePropertyName("zzTwin") }),
            InsertedDefect(label: "destination outside the model", insert: { _, entity in
                entity.properties.append(relationship("zzOut", to: outsider))
            }, expected: { $0 == .destinationEntityNotInModel("FuzzOutsider") }),
            InsertedDefect(label: "missing destination", insert: { _, entity in
                entity.properties.append(relationship("zzNowhere", to: nil))
            }, expected: { $0 == .missingDestinationEntity }),
            InsertedDefect(label: "inverse not pointing back", insert: { _, entity in
                let there = relationship("zzThere", to: entity), back = relationship("zzBack", to: entity)
                there.inverseRelationship = back
                entity.properties += [there, back]
            }, expected: { $0 == .inverseNotReciprocal(inverse: "zzBack") }),
            InsertedDefect(label: "minCount > maxCount", insert: { _, entity in
                let r = relationship("zzCounted", to: entity, maxCount: 2)
                r.minCount = 3
                entity.properties.append(r)
            }, expected: { $0 == .minCountExceedsMaxCount(min: 3, max: 2) }),
            InsertedDefect(label: "numeric min > max", insert: { _, entity in
                let a = attribute("zzRange", .integer64AttributeType)
                a.validationRules = [.minimumValue(.integer(10)), .maximumValue(.integer(5))]
                entity.properties.append(a)
            }, expected: { $0 == .numericBoundsInverted(minimum: .integer(10), maximum: .integer(5)) }),
            InsertedDefect(label: "string min > max length", insert: { _, entity in
                let a = attribute("zzLength", .stringAttributeType)
                a.validationRules = [.minimumLength(4), .maximumLength(1)]
                entity.properties.append(a)
            }, expected: { $0 == .lengthBoundsInverted(minimum: 4, maximum: 1) }),
            InsertedDefect(label: "regex that does not compile", insert: { _, entity in
                let a = attribute("zzPattern", .stringAttributeType)
                a.validationRules = [.pattern("(unclosed")]
                entity.properties.append(a)
            }, expected: { $0 == .invalidRegularExpression("(unclosed") }),
            InsertedDefect(label: "composite with a relationship", insert: { _, entity in
                let c = CompositeAttributeDescription()
                c.name = "zzComposite"
                c.elements = [attribute("zzLeaf", .stringAttributeType), relationship("zzInside", to: entity)]
                entity.properties.append(c)
            }, expected: { $0 == .compositeContainsRelationship("zzInside") }),
            InsertedDefect(label: "empty composite", insert: { _, entity in
                let c = CompositeAttributeDescription()
                c.name = "zzEmpty"
                entity.properties.append(c)
            }, expected: { $0 == .compositeWithoutElements }),
            InsertedDefect(label: "constraint on unknown property", insert: { _, entity in
                entity.uniquenessConstraints.append(["zzGhost"])
            }, expected: { $0 == .constraintUnknownProperty("zzGhost") }),
            InsertedDefect(label: "constraint on to-many", insert: { _, entity in
                entity.properties.append(relationship("zzMany", to: entity, maxCount: 0))
                entity.uniquenessConstraints.append(["zzMany"])
            }, expected: { $0 == .constraintOnToManyRelationship("zzMany") }),
            InsertedDefect(label: "fetch index on unknown property", insert: { _, entity in
                entity.indexes.append(FetchIndexDescription(name: "zzIndex", elements: [FetchIndexElementDescription(propertyName: "zzGhost")]))
            }, expected: { $0 == .fetchIndexUnknownProperty(index: "zzIndex", property: "zzGhost") }),
            InsertedDefect(label: "@count over an attribute", insert: { _, entity in
                entity.properties += [attribute("zzText", .stringAttributeType), derived("zzTextCount", .integer64AttributeType, "zzText.@count")]
            }, expected: { $0 == .derivationAggregateOverNonToMany("zzText") }),
            InsertedDefect(label: "@sum over a string", insert: { _, entity in
                let target = EntityDescription()
                target.name = "ZzTarget"
                target.properties = [attribute("label", .stringAttributeType)]
                entity.managedObjectModel?.entities.append(target)
                entity.properties += [relationship("zzItems", to: target, maxCount: 0),
                                      derived("zzTotal", .integer64AttributeType, "@sum.zzItems.label")]
            }, expected: { $0 == .derivationAggregateOverNonNumeric(function: .sum, keyPath: "zzItems.label") }),
            InsertedDefect(label: "@count into a string", insert: { _, entity in
                entity.properties += [relationship("zzAll", to: entity, maxCount: 0),
                                      derived("zzAllCount", .stringAttributeType, "zzAll.@count")]
            }, expected: { $0 == .derivationResultTypeMismatch(expression: "zzAll.@count", resultType: .stringAttributeType) }),
            InsertedDefect(label: "malformed derivation", insert: { _, entity in
                entity.properties.append(derived("zzBroken", .integer64AttributeType, "zz.@"))
            }, expected: { if case .derivationSyntax = $0 { true } else { false } }),
            InsertedDefect(label: "default value of the wrong type", insert: { _, entity in
                let a = attribute("zzSmall", .integer16AttributeType)
                a.defaultAttributeValue = .string("big")
                entity.properties.append(a)
            }, expected: { $0 == .defaultValueTypeMismatch(.integer16AttributeType) }),
            InsertedDefect(label: "inheritance cycle", insert: { model, entity in
                let child = EntityDescription()
                child.name = "ZzChild"
                model.entities.append(child)
                entity.subentities.append(child)
                child.subentities = [entity]
            }, expected: { if case .inheritanceCycle = $0 { true } else { false } }),
        ]
    }
}
