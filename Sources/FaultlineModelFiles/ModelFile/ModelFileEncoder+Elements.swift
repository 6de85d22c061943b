// Entities, attributes, relationships, indexes and constraints as XML elements:
// the exact inverse of ModelFileDecoder (+Attributes, +Members).
//
// Composite attributes are written as Xcode does: the attribute names a
// model-level `<composite name>` definition. The name comes from
// `extras.compositeTypeNames` (what was read), else the attribute's name
// capitalized; two composites with the same name and different elements get
// numbered names (`Address2`), identical ones share one definition.

import Foundation
import FaultlineModel

extension ModelFileEncoder {
    mutating func writeEntity(_ entity: EntityDescription, entityNames: Set<String>) throws(ModelFileError) {
        guard let name = entity.name, !name.isEmpty else {
            throw failure("an entity has no name", at: "/model/entity")
        }
        let path = "/model/entity[@name='\(name)']"
        if let unresolved = entity.unresolvedSuperentityName {
            throw failure("parent entity '\(unresolved)' is not in the model", at: path)
        }
        try open("entity", [
            ("name", name),
            ("representedClassName", entity.managedObjectClassName),
            ("parentEntity", entity.superentity?.name),
            ("isAbstract", ModelFileFormat.yes(entity.isAbstract)),
            ("elementID", entity.renamingIdentifier),
            ("versionHashModifier", entity.versionHashModifier),
            ("codeGenerationType", extras.codeGenerationTypes[name]),
        ], at: path)
        let sorted = entity.properties.sorted { $0.name < $1.name }
        for property in sorted {
            guard let attribute = property as? AttributeDescription else { continue }
            try writeAttribute(attribute, keyPath: [name], at: path)
        }
        for property in sorted {
            guard let relationship = property as? RelationshipDescription else { continue }
            try writeRelationship(relationship, at: path)
        }
        for property in sorted where !(property is AttributeDescription) && !(property is RelationshipDescription) {
            throw failure("property '\(property.name)' is neither an attribute nor a relationship", at: path)
        }
        for fetched in extras.fetchedProperties[name] ?? [] {
            let fetchedPath = path + "/fetchedProperty[@name='\(fetched.name)']"
            try open("fetchedProperty", [("name", fetched.name), ("optional", ModelFileFormat.yes(fetched.isOptional))], at: fetchedPath)
            try fetchRequest(fetched.fetchRequest, entityNames: entityNames, at: fetchedPath + "/fetchRequest")
            try userInfo(fetched.userInfo, at: fetchedPath)
            xml.close("fetchedProperty")
        }
        try writeIndexes(of: entity, at: path)
        if !entity.uniquenessConstraints.isEmpty {
            try open("uniquenessConstraints", [], at: path)
            for constraint in entity.uniquenessConstraints {
                try open("uniquenessConstraint", [], at: path + "/uniquenessConstraints")
                for property in constraint {
                    try open("constraint", [("value", property)], empty: true, at: path + "/uniquenessConstraints")
                }
                xml.close("uniquenessConstraint")
            }
            xml.close("uniquenessConstraints")
        }
        try userInfo(try stringEntries(entity.userInfo, at: path), at: path)
        xml.close("entity")
    }

    // MARK: - Attributes

    /// `keyPath` starts with the entity name, then the enclosing composites.
    mutating func writeAttribute(_ attribute: AttributeDescription, keyPath: [String], at parentPath: String) throws(ModelFileError) {
        let path = parentPath + "/attribute[@name='\(attribute.name)']"
        let type = attribute.attributeType
        let (defaultText, defaultInterval) = try defaultValueTexts(attribute, at: path)
        let rules = try ruleTexts(attribute, at: path)
        var compositeName: String?
        if let composite = attribute as? CompositeAttributeDescription {
            compositeName = try registerComposite(composite, keyPath: keyPath + [composite.name], at: path)
        } else if type == .compositeAttributeType {
            throw failure("attribute '\(attribute.name)' has the Composite type but no elements", at: path)
        }
        let derived = attribute as? DerivedAttributeDescription
        let info = try stringEntries(attribute.userInfo, at: path)
        try open("attribute", [
            ("name", attribute.name),
            ("optional", ModelFileFormat.yes(attribute.isOptional)),
            ("transient", ModelFileFormat.yes(attribute.isTransient)),
            ("attributeType", ModelFileFormat.name(of: type)),
            ("minValueString", rules.minValue),
            ("maxValueString", rules.maxValue),
            ("regularExpressionString", rules.pattern),
            ("minDateTimeInterval", rules.minDate),
            ("maxDateTimeInterval", rules.maxDate),
            ("defaultValueString", defaultText),
            ("defaultDateTimeInterval", defaultInterval),
            ("allowsExternalBinaryDataStorage", ModelFileFormat.yes(attribute.allowsExternalBinaryDataStorage)),
            ("preserveAfterDeletion", ModelFileFormat.yes(attribute.preservesValueInHistoryOnDeletion)),
            ("valueTransformerName", attribute.valueTransformerName),
            ("customClassName", attribute.attributeValueClassName),
            ("derived", derived.map { _ in "YES" }),
            ("derivationExpression", derived?.derivationExpression),
            ("composite", compositeName),
            ("elementID", attribute.renamingIdentifier),
            ("versionHashModifier", attribute.versionHashModifier),
            ("indexed", ModelFileFormat.yes(attribute.isIndexed)),
            ("spotlightIndexingEnabled", ModelFileFormat.yes(attribute.isIndexedBySpotlight)),
        ], empty: info.isEmpty, at: path)
        if !info.isEmpty {
            try userInfo(info, at: path)
            xml.close("attribute")
        }
    }

    /// Writes the composite's elements as a definition body and returns its name.
    private mutating func registerComposite(_ composite: CompositeAttributeDescription, keyPath: [String],
                                            at path: String) throws(ModelFileError) -> String {
        guard !composite.elements.isEmpty else {
            throw failure("composite attribute '\(composite.name)' has no elements", at: path)
        }
        let saved = xml
        xml = XMLTextWriter()
        for element in composite.elements.sorted(by: { $0.name < $1.name }) {
            guard let attribute = element as? AttributeDescription, !(element is DerivedAttributeDescription) else {
                xml = saved
                throw failure("composite element '\(element.name)' is not a plain attribute", at: path)
            }
            do throws(ModelFileError) {
                try writeAttribute(attribute, keyPath: keyPath, at: path)
            } catch {
                xml = saved
                throw error
            }
        }
        let body = xml.body
        xml = saved
        let first = composite.name.prefix(1).uppercased() + composite.name.dropFirst()
        let preferred = extras.compositeTypeNames[keyPath.joined(separator: ".")] ?? first
        var name = preferred
        var number = 2
        while let existing = compositeBodies[name], existing != body {
            name = "\(preferred)\(number)"
            number += 1
        }
        if compositeBodies[name] == nil {
            compositeBodies[name] = body
            compositeOrder.append(name)
        }
        return name
    }

    private func defaultValueTexts(_ attribute: AttributeDescription, at path: String) throws(ModelFileError) -> (String?, String?) {
        guard let value = attribute.defaultAttributeValue else { return (nil, nil) }
        let type = attribute.attributeType
        guard let typed = value.coerced(to: type) else {
            throw failure("default value \(value) does not fit the \(ModelFileFormat.name(of: type)) type", at: path + "/@defaultValueString")
        }
        switch typed {
        case .null: return (nil, nil)
        case .integer(let v): return ("\(v)", nil)
        case .double(let v): return (ModelFileFormat.text(v), nil)
        case .decimal(let v): return (ModelFileFormat.text(v), nil)
        case .string(let v): return (v, nil)
        case .bool(let v): return (v ? "YES" : "NO", nil)
        case .date(let v): return (nil, ModelFileFormat.text(v))
        case .uuid(let v): return (v.uuidString, nil)
        case .uri(let v): return (v.absoluteString, nil)
        case .data, .composite:
            throw failure("a default value of this kind cannot be written in a model file", at: path + "/@defaultValueString")
        }
    }

    private struct RuleTexts {
        var minValue: String?, maxValue: String?, pattern: String?, minDate: String?, maxDate: String?
    }

    private func ruleTexts(_ attribute: AttributeDescription, at path: String) throws(ModelFileError) -> RuleTexts {
        var texts = RuleTexts()
        func set(_ slot: inout String?, _ text: String, _ rule: ValidationRule) throws(ModelFileError) {
            guard slot == nil else {
                throw failure("two rules of the same kind (\(rule)) cannot both be written; a model file holds one", at: path)
            }
            slot = text
        }
        for rule in attribute.validationRules {
            guard rule.applies(to: attribute.attributeType) else {
                throw failure("rule '\(rule)' does not apply to \(ModelFileFormat.name(of: attribute.attributeType)) attributes", at: path)
            }
            switch rule {
            case .minimumValue(let bound): try set(&texts.minValue, text(bound), rule)
            case .maximumValue(let bound): try set(&texts.maxValue, text(bound), rule)
            case .minimumLength(let length): try set(&texts.minValue, "\(length)", rule)
            case .maximumLength(let length): try set(&texts.maxValue, "\(length)", rule)
            case .pattern(let pattern): try set(&texts.pattern, pattern, rule)
            case .earliestDate(let date): try set(&texts.minDate, ModelFileFormat.text(date), rule)
            case .latestDate(let date): try set(&texts.maxDate, ModelFileFormat.text(date), rule)
            }
        }
        return texts
    }

    private func text(_ bound: NumericBound) -> String {
        switch bound {
        case .integer(let v): "\(v)"
        case .decimal(let v): ModelFileFormat.text(v)
        case .double(let v): ModelFileFormat.text(v)
        }
    }

    // MARK: - Relationships

    mutating func writeRelationship(_ relationship: RelationshipDescription, at parentPath: String) throws(ModelFileError) {
        let path = parentPath + "/relationship[@name='\(relationship.name)']"
        guard let destination = relationship.destinationEntity?.name else {
            let name = relationship.unresolvedDestinationName.map { "'\($0)', which is not in the model" } ?? "no entity"
            throw failure("relationship '\(relationship.name)' leads to \(name)", at: path)
        }
        if let unresolved = relationship.unresolvedInverseName {
            throw failure("inverse '\(unresolved)' of relationship '\(relationship.name)' is not in the model", at: path)
        }
        let inverse = relationship.inverseRelationship
        let toMany = relationship.maxCount != 1
        let info = try stringEntries(relationship.userInfo, at: path)
        try open("relationship", [
            ("name", relationship.name),
            ("optional", ModelFileFormat.yes(relationship.isOptional)),
            ("transient", ModelFileFormat.yes(relationship.isTransient)),
            ("toMany", ModelFileFormat.yes(toMany)),
            ("ordered", ModelFileFormat.yes(relationship.isOrdered)),
            ("minCount", relationship.minCount == 0 ? nil : "\(relationship.minCount)"),
            ("maxCount", relationship.maxCount == 0 ? nil : "\(relationship.maxCount)"),
            ("deletionRule", ModelFileFormat.name(of: relationship.deleteRule)),
            ("destinationEntity", destination),
            ("inverseName", inverse?.name),
            ("inverseEntity", inverse.map { $0.entity?.name ?? destination }),
            ("elementID", relationship.renamingIdentifier),
            ("versionHashModifier", relationship.versionHashModifier),
            ("indexed", ModelFileFormat.yes(relationship.isIndexed)),
            ("spotlightIndexingEnabled", ModelFileFormat.yes(relationship.isIndexedBySpotlight)),
        ], empty: info.isEmpty, at: path)
        if !info.isEmpty {
            try userInfo(info, at: path)
            xml.close("relationship")
        }
    }

    // MARK: - Indexes

    private mutating func writeIndexes(of entity: EntityDescription, at path: String) throws(ModelFileError) {
        for index in entity.indexes {
            let indexPath = path + "/fetchIndex[@name='\(index.name)']"
            try open("fetchIndex", [("name", index.name)], at: indexPath)
            for element in index.elements {
                try open("fetchIndexElement", [
                    ("property", element.propertyName),
                    ("type", element.collationType == .rTree ? "RTree" : "Binary"),
                    ("order", element.isAscending ? "ascending" : "descending"),
                ], empty: true, at: indexPath)
            }
            xml.close("fetchIndex")
        }
        guard !entity.compoundIndexes.isEmpty else { return }
        try open("compoundIndexes", [], at: path)
        for index in entity.compoundIndexes {
            try open("compoundIndex", [], at: path + "/compoundIndexes")
            for name in index {
                try open("index", [("value", name)], empty: true, at: path + "/compoundIndexes")
            }
            xml.close("compoundIndex")
        }
        xml.close("compoundIndexes")
    }
}
