import Foundation
@testable import Faultline

/// Builds random *valid* models: unique identifier names, acyclic inheritance,
/// reciprocal inverses, derivations that fit. The same seed gives the same model;
/// `shuffleSeed` additionally shuffles every declaration order.
struct ValidModelGenerator {
    static let types: [AttributeType] = [
        .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .decimalAttributeType,
        .doubleAttributeType, .floatAttributeType, .stringAttributeType, .booleanAttributeType,
        .dateAttributeType, .binaryDataAttributeType, .UUIDAttributeType, .URIAttributeType,
    ]

    static func make(seed: UInt64, shuffleSeed: UInt64? = nil) -> ManagedObjectModel {
        var rng = SeededGenerator(seed: seed)
        func roll(_ upper: Int) -> Int { Int(rng.next() % UInt64(upper + 1)) }

        let entities = (0...roll(5)).map { index in
            let entity = EntityDescription()
            entity.name = "E\(index)"
            return entity
        }
        var parents: [Int: Int] = [:]
        for index in entities.indices.dropFirst() where roll(2) == 0 {
            parents[index] = roll(index - 1)
        }
        var properties: [[PropertyDescription]] = entities.map { _ in [] }
        for (index, entity) in entities.enumerated() {
            for k in 0..<roll(4) {
                let attribute = AttributeDescription()
                attribute.name = "e\(index)a\(k)"
                attribute.attributeType = types[roll(types.count - 1)]
                attribute.isOptional = roll(1) == 0
                properties[index].append(attribute)
            }
            if roll(3) == 0 {
                let composite = CompositeAttributeDescription()
                composite.name = "e\(index)c"
                composite.elements = (0...roll(2)).map { k in
                    let element = AttributeDescription()
                    element.name = "part\(k)"
                    element.attributeType = .stringAttributeType
                    return element
                }
                properties[index].append(composite)
            }
            if let first = properties[index].first as? AttributeDescription, !(first is CompositeAttributeDescription) {
                entity.uniquenessConstraints = [[first.name]]
                entity.indexes = [FetchIndexDescription(name: "e\(index)i",
                                                        elements: [FetchIndexElementDescription(propertyName: first.name, isAscending: roll(1) == 0)])]
            }
        }
        for k in 0..<roll(5) {
            let source = roll(entities.count - 1), destination = roll(entities.count - 1)
            let forward = RelationshipDescription(), backward = RelationshipDescription()
            forward.name = "e\(source)r\(k)"
            backward.name = "e\(destination)q\(k)"
            forward.destinationEntity = entities[destination]
            backward.destinationEntity = entities[source]
            forward.maxCount = roll(1) == 0 ? 0 : 1
            backward.maxCount = roll(1) == 0 ? 0 : 1
            forward.isOrdered = forward.isToMany && roll(1) == 0
            properties[source].append(forward)
            if roll(3) > 0 {
                forward.inverseRelationship = backward
                backward.inverseRelationship = forward
                properties[destination].append(backward)
            }
            if forward.isToMany {
                let derived = DerivedAttributeDescription()
                derived.name = "e\(source)d\(k)"
                derived.attributeType = .integer64AttributeType
                derived.derivationExpression = roll(1) == 0 ? "\(forward.name).@count" : "@count.\(forward.name)"
                properties[source].append(derived)
            }
        }
        if let shuffleSeed {
            var shuffler = SeededGenerator(seed: shuffleSeed)
            properties = properties.map { $0.shuffled(using: &shuffler) }
        }
        for (index, entity) in entities.enumerated() { entity.properties = properties[index] }
        for (child, parent) in parents.sorted(by: { $0.key < $1.key }) {
            entities[parent].subentities.append(entities[child])
        }
        let model = ManagedObjectModel()
        if let shuffleSeed {
            var shuffler = SeededGenerator(seed: shuffleSeed ^ 0xFF)
            model.entities = entities.shuffled(using: &shuffler)
        } else {
            model.entities = entities
        }
        return model
    }
}
