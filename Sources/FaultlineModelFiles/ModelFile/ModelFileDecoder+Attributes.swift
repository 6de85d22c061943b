// Attributes: the type name, flags, default value (typed by the attribute type;
// dates from `defaultDateTimeInterval`, seconds since 2001-01-01 UTC), validation
// bounds (`minValueString`/`maxValueString` are numeric bounds on numbers and
// length bounds on strings; dates use `min/maxDateTimeInterval`), derivations,
// transformers, and composites (`attributeType="Composite" composite="Name"`
// naming a model-level `<composite name="Name">`; inline `<attribute>` children
// are accepted too). A value that cannot be read is an error, never dropped:
// losing a default or a bound would change what the model means.
//
// Numeric bounds keep the form they were written in: an integer literal becomes
// `.integer`, anything else `.decimal` on Decimal attributes and `.double`
// otherwise. Rules come back in the order minimum, maximum, pattern.

import Foundation
import FaultlineModel

extension ModelFileDecoder {
    /// Composite definitions expand recursively; real models nest two or three.
    static let maximumCompositeNesting = 16

    /// Decodes `<attribute>`; `keyPath` is the path of the enclosing composite
    /// (empty at entity level), `compositeStack` the composite definitions being
    /// expanded (for cycle detection).
    mutating func decodeAttribute(_ node: ModelFileXMLNode, entity entityName: String, keyPath: [String],
                                  compositeStack: [String]) throws(ModelFileError) -> AttributeDescription {
        var attributes = XMLAttributes(node)
        guard let name = attributes.take("name"), !name.isEmpty else {
            throw error(.missingAttribute, "<attribute> has no name", node)
        }
        guard let typeName = attributes.take("attributeType") else {
            throw error(.missingAttribute, "attribute '\(name)' has no attributeType", node)
        }
        guard let type = ModelFileFormat.attributeType(named: typeName) else {
            let known = ModelFileFormat.attributeTypeNames.map { "'\($0.0)'" }.joined(separator: ", ")
            throw error(.unknownAttributeType, "attribute type '\(typeName)' is not one of \(known)", node, attribute: "attributeType")
        }
        let isDerived = try bool(&attributes, "derived") ?? false
        let expression = attributes.take("derivationExpression")

        let attribute: AttributeDescription
        var composite: CompositeAttributeDescription?
        if type == .compositeAttributeType {
            guard !isDerived else {
                throw error(.inconsistent, "a composite attribute cannot be derived", node, attribute: "derived")
            }
            let made = CompositeAttributeDescription()
            composite = made
            attribute = made
        } else if isDerived {
            let derived = DerivedAttributeDescription()
            derived.derivationExpression = expression
            attribute = derived
        } else {
            if expression != nil {
                warn(node, attribute: "derivationExpression", "derivationExpression without derived=\"YES\" is ignored")
            }
            attribute = AttributeDescription()
        }
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = try bool(&attributes, "optional") ?? false
        attribute.isTransient = try bool(&attributes, "transient") ?? false
        attribute.isIndexed = try bool(&attributes, "indexed") ?? false
        attribute.isIndexedBySpotlight = try bool(&attributes, "spotlightIndexingEnabled") ?? false
        attribute.valueTransformerName = attributes.take("valueTransformerName")
        attribute.attributeValueClassName = attributes.take("customClassName")
        attribute.allowsExternalBinaryDataStorage = try bool(&attributes, "allowsExternalBinaryDataStorage") ?? false
        attribute.preservesValueInHistoryOnDeletion = try bool(&attributes, "preserveAfterDeletion") ?? false
        attribute.renamingIdentifier = renamingIdentifier(&attributes)
        attribute.versionHashModifier = attributes.take("versionHashModifier")
        attribute.defaultAttributeValue = try defaultValue(&attributes, type: type)
        attribute.validationRules = try validationRules(&attributes, type: type)
        if type == .objectIDAttributeType {
            warn(node, attribute: "attributeType", "ObjectID attributes only exist in fetch results; checking the model will reject '\(name)'")
        } else if type == .undefinedAttributeType, !attribute.isTransient {
            warn(node, attribute: "attributeType", "Undefined attributes must be transient; checking the model will reject '\(name)'")
        }

        let path = keyPath + [name]
        var inlineElements: [ModelFileXMLNode] = []
        for child in tree.children(of: node) {
            switch child.name {
            case "userInfo": attribute.userInfo = merged(attribute.userInfo, decodeUserInfo(child))
            case "attribute" where composite != nil: inlineElements.append(child)
            default: warnUnknownElement(child, in: "attribute")
            }
        }
        if let composite {
            let definitionName = attributes.take("composite")
            composite.elements = try compositeElements(of: node, definitionName: definitionName, inline: inlineElements,
                                                       entity: entityName, path: path, stack: compositeStack)
        }
        finish(attributes, element: "attribute")
        return attribute
    }

    // MARK: - Composites

    private mutating func compositeElements(of node: ModelFileXMLNode, definitionName: String?, inline: [ModelFileXMLNode],
                                            entity: String, path: [String], stack: [String]) throws(ModelFileError) -> [PropertyDescription] {
        var elementNodes = inline
        var nextStack = stack
        if let definitionName {
            guard let definition = compositeDefinitions[definitionName] else {
                throw error(.unknownComposite, "composite definition '\(definitionName)' is not in the model", node, attribute: "composite")
            }
            guard !stack.contains(definitionName) else {
                throw error(.inconsistent, "composite '\(definitionName)' contains itself", node, attribute: "composite")
            }
            guard stack.count < Self.maximumCompositeNesting else {
                throw error(.tooDeep, "composites nest deeper than \(Self.maximumCompositeNesting) levels", node, attribute: "composite")
            }
            if !inline.isEmpty {
                warn(node, "inline elements of a composite attribute that names '\(definitionName)' are ignored")
            }
            usedComposites.insert(definitionName)
            extras.compositeTypeNames[([entity] + path).joined(separator: ".")] = definitionName
            nextStack.append(definitionName)
            elementNodes = []
            for child in tree.children(of: definition) {
                if child.name == "attribute" {
                    elementNodes.append(child)
                } else {
                    warnUnknownElement(child, in: "composite")
                }
            }
        } else if inline.isEmpty {
            throw error(.missingAttribute, "composite attribute '\(path.last ?? "")' names no composite definition", node)
        }
        var elements: [PropertyDescription] = []
        for child in elementNodes {
            elements.append(try decodeAttribute(child, entity: entity, keyPath: path, compositeStack: nextStack))
        }
        return elements
    }

    // MARK: - Defaults

    private mutating func defaultValue(_ attributes: inout XMLAttributes, type: AttributeType) throws(ModelFileError) -> AttributeValue? {
        let node = attributes.node
        let text = attributes.take("defaultValueString")
        if let interval = attributes.take("defaultDateTimeInterval") {
            guard type == .dateAttributeType else {
                throw error(.inconsistent, "defaultDateTimeInterval is only meaningful on Date attributes", node, attribute: "defaultDateTimeInterval")
            }
            if text != nil {
                warn(node, attribute: "defaultValueString", "defaultValueString is ignored beside defaultDateTimeInterval")
            }
            return .date(try date(interval, node, "defaultDateTimeInterval"))
        }
        guard let text else { return nil }
        let key = "defaultValueString"
        let invalid = error(.invalidValue, "default value '\(text)' is not a valid \(ModelFileFormat.name(of: type))", node, attribute: key)
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if ModelFileFormat.isIntegerLiteral(text), let value = Int64(text) { return .integer(value) }
            if let double = ModelFileFormat.double(text), let exact = Int64(exactly: double) { return .integer(exact) }
            throw invalid
        case .decimalAttributeType:
            guard let value = ModelFileFormat.decimal(text) else { throw invalid }
            return .decimal(value)
        case .doubleAttributeType, .floatAttributeType:
            guard let value = ModelFileFormat.double(text) else { throw invalid }
            return .double(value)
        case .stringAttributeType:
            return .string(text)
        case .booleanAttributeType:
            guard let value = ModelFileFormat.bool(text) else { throw invalid }
            return .bool(value)
        case .dateAttributeType:
            return .date(try date(text, node, key))
        case .UUIDAttributeType:
            guard let value = UUID(uuidString: text) else { throw invalid }
            return .uuid(value)
        case .URIAttributeType:
            guard let value = URL(string: text) else { throw invalid }
            return .uri(value)
        case .binaryDataAttributeType, .transformableAttributeType, .compositeAttributeType,
             .objectIDAttributeType, .undefinedAttributeType:
            throw error(.inconsistent, "\(ModelFileFormat.name(of: type)) attributes cannot have a default value in a model file",
                        node, attribute: key)
        }
    }

    private func date(_ text: String, _ node: ModelFileXMLNode, _ key: String) throws(ModelFileError) -> Date {
        guard let interval = ModelFileFormat.double(text), interval.isFinite else {
            throw error(.invalidValue, "'\(text)' is not a number of seconds since 2001-01-01", node, attribute: key)
        }
        return Date(timeIntervalSinceReferenceDate: interval)
    }

    // MARK: - Validation rules

    private mutating func validationRules(_ attributes: inout XMLAttributes, type: AttributeType) throws(ModelFileError) -> [ValidationRule] {
        let node = attributes.node
        var rules: [ValidationRule] = []
        for (key, isMinimum) in [("minValueString", true), ("maxValueString", false)] {
            guard let text = attributes.take(key) else { continue }
            let invalid = error(.invalidValue, "'\(text)' is not a valid bound for a \(ModelFileFormat.name(of: type)) attribute", node, attribute: key)
            if type.isNumeric {
                guard let bound = numericBound(text, type: type) else { throw invalid }
                rules.append(isMinimum ? .minimumValue(bound) : .maximumValue(bound))
            } else if type == .stringAttributeType {
                guard ModelFileFormat.isIntegerLiteral(text), let length = Int(text) else { throw invalid }
                rules.append(isMinimum ? .minimumLength(length) : .maximumLength(length))
            } else if type == .dateAttributeType {
                let bound = try date(text, node, key)
                rules.append(isMinimum ? .earliestDate(bound) : .latestDate(bound))
            } else {
                throw error(.inconsistent, "\(key) has no meaning on a \(ModelFileFormat.name(of: type)) attribute and cannot be kept",
                            node, attribute: key)
            }
        }
        for (key, isMinimum) in [("minDateTimeInterval", true), ("maxDateTimeInterval", false)] {
            guard let text = attributes.take(key) else { continue }
            guard type == .dateAttributeType else {
                throw error(.inconsistent, "\(key) is only meaningful on Date attributes", node, attribute: key)
            }
            let bound = try date(text, node, key)
            rules.append(isMinimum ? .earliestDate(bound) : .latestDate(bound))
        }
        if let pattern = attributes.take("regularExpressionString") {
            guard type == .stringAttributeType else {
                throw error(.inconsistent, "regularExpressionString is only meaningful on String attributes",
                            node, attribute: "regularExpressionString")
            }
            rules.append(.pattern(pattern))
        }
        return rules
    }

    private func numericBound(_ text: String, type: AttributeType) -> NumericBound? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if ModelFileFormat.isIntegerLiteral(trimmed), let value = Int64(trimmed) { return .integer(value) }
        if type == .decimalAttributeType { return ModelFileFormat.decimal(trimmed).map { .decimal($0) } }
        guard let value = ModelFileFormat.double(trimmed), !value.isNaN else { return nil }
        return .double(value)
    }
}
