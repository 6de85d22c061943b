// Attribute checks: the type is usable, the default value fits, transformable
// attributes name a registered transformer or none (Core Data's default), composites are well formed, and
// derived attributes have a sound derivation.

extension ModelValidator {
    /// Checks an attribute; `path` is its key path from the entity
    /// (`colorScheme.primary` for a composite element).
    mutating func checkAttribute(_ attribute: AttributeDescription, in entity: EntityDescription, path: String) {
        checkType(of: attribute, in: entity, path: path)
        checkDefaultValue(of: attribute, in: entity, path: path)
        // A transformable without a transformer name, or naming Core Data's own
        // archive transformer, stores a keyed archive: valid without registering.
        if attribute.attributeType == .transformableAttributeType,
           !ValueTransformerRegistry.storesCoreDataArchive(transformerName: attribute.valueTransformerName),
           let name = attribute.valueTransformerName, ValueTransformerRegistry.transformer(forName: name) == nil {
            report(.unregisteredTransformer(name), entity: entity, property: path)
        }
        checkRules(of: attribute, in: entity, path: path)
        if let composite = attribute as? CompositeAttributeDescription {
            checkComposite(composite, in: entity, path: path)
        }
        if let derived = attribute as? DerivedAttributeDescription {
            for kind in DerivationChecker(entity: entity, attribute: derived).problems() {
                report(kind, entity: entity, property: path)
            }
        }
    }

    private mutating func checkType(of attribute: AttributeDescription, in entity: EntityDescription, path: String) {
        let type = attribute.attributeType
        let isComposite = attribute is CompositeAttributeDescription
        let usable = switch type {
        case .undefinedAttributeType: attribute.isTransient && !isComposite
        case .objectIDAttributeType: false
        case .compositeAttributeType: isComposite
        default: !isComposite
        }
        if !usable {
            report(.unsupportedAttributeType(type), entity: entity, property: path)
        }
    }

    private mutating func checkDefaultValue(of attribute: AttributeDescription, in entity: EntityDescription, path: String) {
        if let typeName = attribute.unconvertibleDefaultValueType {
            report(.defaultValueNotConvertible(typeName: typeName), entity: entity, property: path)
        }
        guard let value = attribute.defaultAttributeValue else { return }
        if let composite = attribute as? CompositeAttributeDescription, case .composite(let values) = value {
            checkCompositeDefault(values, of: composite, in: entity, path: path)
        } else if value.coerced(to: attribute.attributeType) == nil {
            report(.defaultValueTypeMismatch(attribute.attributeType), entity: entity, property: path)
        }
    }

    private mutating func checkCompositeDefault(_ values: [String: AttributeValue], of composite: CompositeAttributeDescription,
                                                in entity: EntityDescription, path: String) {
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            let elementPath = "\(path).\(key)"
            guard let element = composite.elements.first(where: { $0.name == key }) as? AttributeDescription else {
                report(.unknownCompositeDefaultKey(key), entity: entity, property: path)
                continue
            }
            if let nested = element as? CompositeAttributeDescription, case .composite(let nestedValues) = value {
                checkCompositeDefault(nestedValues, of: nested, in: entity, path: elementPath)
            } else if value.coerced(to: element.attributeType) == nil {
                report(.defaultValueTypeMismatch(element.attributeType), entity: entity, property: elementPath)
            }
        }
    }

    private mutating func checkComposite(_ composite: CompositeAttributeDescription, in entity: EntityDescription, path: String) {
        for rejected in composite.rejectedCyclicElements {
            report(.compositeCycle(rejected), entity: entity, property: path)
        }
        if composite.elements.isEmpty {
            report(.compositeWithoutElements, entity: entity, property: path)
        }
        var names = Set<String>()
        for element in composite.elements {
            let elementPath = "\(path).\(element.name)"
            if let problem = NameRules.problem(with: element.name, kind: .property) {
                report(problem, entity: entity, property: elementPath)
            } else if !names.insert(element.name).inserted {
                report(.duplicatePropertyName(element.name), entity: entity, property: elementPath)
            }
            switch element {
            case is RelationshipDescription:
                report(.compositeContainsRelationship(element.name), entity: entity, property: path)
            case is DerivedAttributeDescription:
                report(.compositeContainsDerivedAttribute(element.name), entity: entity, property: path)
            case let attribute as AttributeDescription:
                checkAttribute(attribute, in: entity, path: elementPath)
            default:
                break
            }
        }
    }
}
