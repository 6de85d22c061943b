import Foundation
@testable import Faultline


/// Builds arbitrary (mostly broken) models: random names including bad ones, links
/// to anywhere including outside the model, random derivations and constraints.
struct ChaosModelGenerator {
    var rng: SeededGenerator
    /// Entities outside the model that links may point at; kept alive here.
    var outsiders: [EntityDescription] = []

    static let names = ["", "name", "Name", "9x", "Z_PK", "_ent", "objectID", "title", "items", "owner",
                        "a b", "café", "x", "description", "count", "parent", "children", "views"]
    static let derivationPieces = ["items", "owner", ".", "@count", "@sum", "@max", "@median", "views", "name",
                                   "now()", "canonical:(", ")", "(", " ", "title", "x", "@", ":", "1"]

    mutating func pick<T>(_ values: [T]) -> T {
        values[Int(rng.next() % UInt64(values.count))]
    }

    mutating func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }

    mutating func count(_ upper: Int) -> Int { Int(rng.next() % UInt64(upper + 1)) }

    mutating func randomValue() -> AttributeValue {
        switch count(7) {
        case 0: .integer(Int64(bitPattern: rng.next()))
        case 1: .double(Double(Int64(bitPattern: rng.next() % 2000)) / 7)
        case 2: .string(pick(Self.names))
        case 3: .bool(chance(50))
        case 4: .date(Date(timeIntervalSince1970: Double(rng.next() % 1_000_000)))
        case 5: .composite([pick(Self.names): .integer(1)])
        case 6: .null
        default: .decimal(Decimal(Int(rng.next() % 1000)))
        }
    }

    mutating func randomRule() -> ValidationRule {
        switch count(6) {
        case 0: .minimumValue(.integer(Int64(count(20)) - 10))
        case 1: .maximumValue(pick([.integer(Int64(count(20)) - 10), .double(.nan), .decimal(Decimal(count(9)))]))
        case 2: .minimumLength(count(6) - 2)
        case 3: .maximumLength(count(6) - 2)
        case 4: .pattern(pick(["[a-z]+", "([", "a|b", "*", ".*"]))
        case 5: .earliestDate(Date(timeIntervalSince1970: Double(count(100))))
        default: .latestDate(Date(timeIntervalSince1970: Double(count(100))))
        }
    }

    mutating func randomAttribute(depth: Int = 0) -> AttributeDescription {
        let attribute: AttributeDescription
        switch count(5) {
        case 0:
            let derived = DerivedAttributeDescription()
            derived.derivationExpression = chance(10) ? nil : (0..<count(5)).map { _ in pick(Self.derivationPieces) }.joined()
            attribute = derived
        case 1 where depth < 3:
            let composite = CompositeAttributeDescription()
            composite.elements = (0..<count(3)).map { _ in
                chance(20) ? RelationshipDescription() : randomAttribute(depth: depth + 1)
            }
            attribute = composite
        default:
            attribute = AttributeDescription()
        }
        attribute.name = pick(Self.names)
        if !(attribute is CompositeAttributeDescription) || chance(10) {
            attribute.attributeType = pick(AttributeType.allCases)
        }
        attribute.isOptional = chance(50)
        attribute.isTransient = chance(10)
        if chance(30) { attribute.defaultAttributeValue = randomValue() }
        if chance(5) { attribute.defaultValue = NSObject() }
        if chance(30) { attribute.validationRules = (0..<count(3)).map { _ in randomRule() } }
        if chance(20) { attribute.valueTransformerName = pick(["", "Missing", "StringList"]) }
        return attribute
    }

    mutating func makeModel() -> ManagedObjectModel {
        outsiders = (0..<2).map { index in
            let outsider = EntityDescription()
            outsider.name = "Outsider\(index)"
            return outsider
        }
        let entities = (0..<(1 + count(5))).map { _ in
            let entity = EntityDescription()
            entity.name = chance(85) ? "E\(count(6))" : pick(Self.names)
            entity.isAbstract = chance(15)
            return entity
        }
        let everyone = entities + outsiders
        var relationships: [RelationshipDescription] = []
        for entity in entities {
            var properties: [PropertyDescription] = (0..<count(4)).map { _ in randomAttribute() }
            for _ in 0..<count(3) {
                let relationship = RelationshipDescription()
                relationship.name = pick(Self.names)
                relationship.destinationEntity = chance(90) ? pick(everyone) : nil
                relationship.minCount = count(4) - 1
                relationship.maxCount = count(4) - 1
                relationship.isOrdered = chance(20)
                relationships.append(relationship)
                properties.append(relationship)
            }
            entity.properties = properties
            if chance(30) { entity.uniquenessConstraints = [(0..<count(2)).map { _ in pick(Self.names) }] }
            if chance(20) {
                entity.indexes = [FetchIndexDescription(name: pick(Self.names),
                                                        elements: (0..<count(2)).map { _ in FetchIndexElementDescription(propertyName: pick(Self.names)) })]
            }
        }
        for relationship in relationships where chance(60) {
            relationship.inverseRelationship = pick(relationships)
        }
        for entity in entities where chance(25) {
            entity.subentities = (0..<count(2)).map { _ in pick(everyone) }
        }
        let model = ManagedObjectModel()
        model.entities = entities
        return model
    }
}
