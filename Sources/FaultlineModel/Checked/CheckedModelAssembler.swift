// Builds a `CheckedModel` from a model that passed validation. It still never
// traps: a lookup that validation guarantees is written with a fallback rather
// than a force unwrap.

import Foundation

struct CheckedModelAssembler {
    let model: ManagedObjectModel

    /// Per-entity lists under construction; a sub-entity starts from a copy of its
    /// parent's layout, which is what keeps inherited indexes stable.
    private struct Layout {
        var attributes: [CheckedAttribute] = []
        var relationships: [(description: RelationshipDescription, declaringIndex: Int)] = []
        var composites: [CheckedComposite] = []
        var properties: [PropertyReference] = []
        var propertyByName: [String: PropertyReference] = [:]
        var constraints: [[PropertyReference]] = []
        var fetchIndexes: [CheckedFetchIndex] = []
        var compoundIndexes: [[PropertyReference]] = []
    }

    func assemble() -> CheckedModel {
        let order = entityOrder()
        var indexByID: [ObjectIdentifier: Int] = [:]
        for (index, entity) in order.enumerated() { indexByID[ObjectIdentifier(entity)] = index }

        var layouts: [Layout] = []
        for (index, entity) in order.enumerated() {
            let parentIndex = entity.superentity.flatMap { indexByID[ObjectIdentifier($0)] }
            var layout = parentIndex.map { layouts[$0] } ?? Layout()
            appendOwnProperties(of: entity, index: index, to: &layout)
            layouts.append(layout)
        }

        let relationshipIndexes: [[ObjectIdentifier: Int]] = layouts.map { layout in
            var map: [ObjectIdentifier: Int] = [:]
            for (position, entry) in layout.relationships.enumerated() { map[ObjectIdentifier(entry.description)] = position }
            return map
        }
        let hashes = ModelVersionHash.entityHashes(of: model)

        var entities: [CheckedEntity] = []
        for (index, entity) in order.enumerated() {
            let layout = layouts[index]
            let relationships = layout.relationships.enumerated().map { position, entry in
                checkedRelationship(entry.description, index: position, declaringIndex: entry.declaringIndex,
                                    indexByID: indexByID, relationshipIndexes: relationshipIndexes)
            }
            let superIndex = entity.superentity.flatMap { indexByID[ObjectIdentifier($0)] }
            let rootIndex = entity.ancestryFromRoot.first.flatMap { indexByID[ObjectIdentifier($0)] } ?? index
            entities.append(CheckedEntity(
                name: entity.name ?? "", index: index,
                managedObjectClassName: entity.managedObjectClassName, isAbstract: entity.isAbstract,
                renamingIdentifier: entity.renamingIdentifier, versionHashModifier: entity.versionHashModifier,
                superentityIndex: superIndex, rootEntityIndex: rootIndex,
                subentityIndexes: sortedByName(entity.subentities).compactMap { indexByID[ObjectIdentifier($0)] },
                hierarchyIndexes: hierarchy(of: entity).compactMap { indexByID[ObjectIdentifier($0)] },
                attributes: layout.attributes, relationships: relationships, composites: layout.composites,
                properties: layout.properties, propertyByName: layout.propertyByName,
                uniquenessConstraints: layout.constraints, fetchIndexes: layout.fetchIndexes,
                compoundIndexes: layout.compoundIndexes,
                versionHash: hashes[ObjectIdentifier(entity)] ?? Data()))
        }
        let hashesByName = Dictionary(entities.map { ($0.name, $0.versionHash) }, uniquingKeysWith: { first, _ in first })
        var ownHashesByName = hashesByName
        if !model.adoptedVersionHashes.isEmpty {
            let own = ModelVersionHash.entityHashes(of: model.entities)
            ownHashesByName = Dictionary(order.map { ($0.name ?? "", own[ObjectIdentifier($0)] ?? Data()) },
                                         uniquingKeysWith: { first, _ in first })
        }
        return CheckedModel(
            entities: entities,
            entityIndexByName: Dictionary(entities.map { ($0.name, $0.index) }, uniquingKeysWith: { first, _ in first }),
            versionHash: ModelVersionHash.modelHash(entityHashesByName: hashesByName),
            entityVersionHashes: hashesByName,
            faultlineVersionHash: ModelVersionHash.modelHash(entityHashesByName: ownHashesByName),
            versionIdentifiers: model.versionIdentifiers)
    }

    // MARK: - Entity order

    /// Roots alphabetically, each followed depth-first by its sub-entities
    /// alphabetically (Core Data's `Z_ENT` numbering).
    private func entityOrder() -> [EntityDescription] {
        var order: [EntityDescription] = []
        var visited = Set<ObjectIdentifier>()
        for root in sortedByName(model.entities.filter { $0.superentity == nil }) {
            for entity in hierarchy(of: root) where visited.insert(ObjectIdentifier(entity)).inserted {
                order.append(entity)
            }
        }
        return order
    }

    /// The entity and its descendants, depth-first, sub-entities alphabetically.
    private func hierarchy(of entity: EntityDescription) -> [EntityDescription] {
        var result: [EntityDescription] = []
        var visited = Set<ObjectIdentifier>()
        func visit(_ current: EntityDescription) {
            guard visited.insert(ObjectIdentifier(current)).inserted else { return }
            result.append(current)
            for sub in sortedByName(current.subentities) { visit(sub) }
        }
        visit(entity)
        return result
    }

    /// Core Data orders sibling entities by name ignoring case: every one of
    /// the 42 fixture stores numbers its entities depth first with siblings in
    /// that order (Apple's netusage store has NetworkAttachment before
    /// NWActivityFragment); names equal but for case fall back to code points.
    private func sortedByName(_ entities: [EntityDescription]) -> [EntityDescription] {
        entities.sorted { first, second in
            let (a, b) = (first.name ?? "", second.name ?? "")
            let (foldedA, foldedB) = (a.lowercased(), b.lowercased())
            return foldedA != foldedB ? foldedA < foldedB : a < b
        }
    }

    // MARK: - Properties

    private func appendOwnProperties(of entity: EntityDescription, index: Int, to layout: inout Layout) {
        for property in entity.properties.sorted(by: { $0.name < $1.name }) {
            switch property {
            case let composite as CompositeAttributeDescription:
                let compositeIndex = appendComposite(composite, path: [], parent: nil, inheritedDefault: nil,
                                                     optional: false, transient: false, entityIndex: index, to: &layout)
                layout.properties.append(.composite(compositeIndex))
            case let attribute as AttributeDescription:
                let leafIndex = appendLeaf(attribute, path: [attribute.name], composite: nil, inheritedDefault: nil,
                                           optional: false, transient: false, entityIndex: index, to: &layout)
                layout.properties.append(.attribute(leafIndex))
            case let relationship as RelationshipDescription:
                let reference = PropertyReference.relationship(layout.relationships.count)
                layout.relationships.append((relationship, index))
                layout.properties.append(reference)
                layout.propertyByName[relationship.name] = reference
            default:
                break
            }
        }
        for constraint in entity.uniquenessConstraints {
            layout.constraints.append(constraint.compactMap { layout.propertyByName[$0] })
        }
        for compoundIndex in entity.compoundIndexes {
            layout.compoundIndexes.append(compoundIndex.compactMap { layout.propertyByName[$0] })
        }
        for fetchIndex in entity.indexes {
            let elements = fetchIndex.elements.compactMap { element in
                layout.propertyByName[element.propertyName].map {
                    CheckedFetchIndex.Element(property: $0, isAscending: element.isAscending,
                                              collationType: element.collationType)
                }
            }
            layout.fetchIndexes.append(CheckedFetchIndex(name: fetchIndex.name, elements: elements,
                                                         declaringEntityIndex: index))
        }
    }

    private func appendLeaf(_ attribute: AttributeDescription, path: [String], composite: Int?,
                            inheritedDefault: AttributeValue?, optional: Bool, transient: Bool,
                            entityIndex: Int, to layout: inout Layout) -> Int {
        let leafIndex = layout.attributes.count
        let type = attribute.attributeType
        let ownDefault = attribute.defaultAttributeValue.flatMap { $0.coerced(to: type) }
        let derivation: DerivationExpression? = switch (attribute as? DerivedAttributeDescription)?.parsedDerivation {
        case .success(let expression)?: expression
        default: nil
        }
        let name = path.joined(separator: ".")
        layout.attributes.append(CheckedAttribute(
            name: name, keyPath: path, index: leafIndex, declaringEntityIndex: entityIndex,
            attributeType: type, isOptional: optional || attribute.isOptional,
            isTransient: transient || attribute.isTransient, isIndexed: attribute.isIndexed,
            defaultValue: inheritedDefault.flatMap { $0.coerced(to: type) } ?? ownDefault,
            validationRules: attribute.validationRules, derivation: derivation,
            valueTransformerName: attribute.valueTransformerName,
            attributeValueClassName: attribute.attributeValueClassName,
            allowsExternalBinaryDataStorage: attribute.allowsExternalBinaryDataStorage,
            preservesValueInHistoryOnDeletion: attribute.preservesValueInHistoryOnDeletion,
            compositeIndex: composite))
        layout.propertyByName[name] = .attribute(leafIndex)
        return leafIndex
    }

    private func appendComposite(_ composite: CompositeAttributeDescription, path: [String], parent: Int?,
                                 inheritedDefault: AttributeValue?, optional: Bool, transient: Bool,
                                 entityIndex: Int, to layout: inout Layout) -> Int {
        let compositeIndex = layout.composites.count
        let keyPath = path + [composite.name]
        let isOptional = optional || composite.isOptional
        let isTransient = transient || composite.isTransient
        var defaults: [String: AttributeValue] = [:]
        if case .composite(let values)? = composite.defaultAttributeValue { defaults = values }
        if case .composite(let values)? = inheritedDefault { defaults.merge(values) { _, outer in outer } }
        layout.composites.append(CheckedComposite(
            name: keyPath.joined(separator: "."), keyPath: keyPath, index: compositeIndex,
            declaringEntityIndex: entityIndex, isOptional: isOptional, isTransient: isTransient,
            leafAttributeIndexes: [], parentCompositeIndex: parent))
        layout.propertyByName[keyPath.joined(separator: ".")] = .composite(compositeIndex)
        let firstLeaf = layout.attributes.count
        for element in composite.elements.sorted(by: { $0.name < $1.name }) {
            if let nested = element as? CompositeAttributeDescription {
                _ = appendComposite(nested, path: keyPath, parent: compositeIndex, inheritedDefault: defaults[nested.name],
                                    optional: isOptional, transient: isTransient, entityIndex: entityIndex, to: &layout)
            } else if let attribute = element as? AttributeDescription {
                _ = appendLeaf(attribute, path: keyPath + [attribute.name], composite: compositeIndex,
                               inheritedDefault: defaults[attribute.name], optional: isOptional,
                               transient: isTransient, entityIndex: entityIndex, to: &layout)
            }
        }
        let finished = layout.composites[compositeIndex]
        layout.composites[compositeIndex] = CheckedComposite(
            name: finished.name, keyPath: finished.keyPath, index: compositeIndex,
            declaringEntityIndex: entityIndex, isOptional: isOptional, isTransient: isTransient,
            leafAttributeIndexes: Array(firstLeaf..<layout.attributes.count), parentCompositeIndex: parent)
        return compositeIndex
    }

    private func checkedRelationship(_ relationship: RelationshipDescription, index: Int, declaringIndex: Int,
                                     indexByID: [ObjectIdentifier: Int],
                                     relationshipIndexes: [[ObjectIdentifier: Int]]) -> CheckedRelationship {
        let destinationIndex = relationship.destinationEntity.flatMap { indexByID[ObjectIdentifier($0)] } ?? declaringIndex
        let inverseIndex = relationship.inverseRelationship.flatMap { relationshipIndexes[destinationIndex][ObjectIdentifier($0)] }
        return CheckedRelationship(
            name: relationship.name, index: index, declaringEntityIndex: declaringIndex,
            destinationEntityIndex: destinationIndex, inverseIndex: inverseIndex,
            inverseIsToMany: relationship.inverseRelationship.map(\.isToMany),
            isToMany: relationship.isToMany, isOrdered: relationship.isOrdered,
            isOptional: relationship.isOptional, isTransient: relationship.isTransient,
            minCount: relationship.minCount, maxCount: relationship.maxCount, deleteRule: relationship.deleteRule)
    }
}
