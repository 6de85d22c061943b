// Fills a new object with a value for every stored attribute and a destination
// for every required relationship, so a save into a fixture store passes the
// model's validation and writes every column type.

import Foundation
@testable import Faultline

enum SaveFiller {
    /// A plausible value of `type` (within the fixtures' validation rules).
    /// Strings are unique per call: uniqueness constraints (SwiftData's `id`) hold.
    static func value(for attribute: CheckedAttribute) -> Any? {
        switch attribute.attributeType {
        case .stringAttributeType: return "Faultline \(attribute.name) \(UUID().uuidString.prefix(8))"
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: return Int64(3)
        case .booleanAttributeType: return true
        case .doubleAttributeType, .floatAttributeType: return 2.5
        case .dateAttributeType: return Date(timeIntervalSinceReferenceDate: 800_000_000.25)
        case .decimalAttributeType: return Decimal(string: "12.34")
        case .binaryDataAttributeType, .transformableAttributeType: return Data([0xFA, 0x17, 0x00, 0x01])
        case .UUIDAttributeType: return UUID(uuidString: "F4A17000-0000-4000-8000-000000000001")
        case .URIAttributeType: return URL(string: "https://example.com/faultline")
        default: return nil
        }
    }

    /// The first concrete entity of `index`'s hierarchy (itself when concrete).
    static func concrete(_ index: Int, in model: CheckedModel) -> CheckedEntity? {
        model.entities[index].hierarchyIndexes.map { model.entities[$0] }.first { !$0.isAbstract }
    }

    static func fill(_ object: ManagedObject, in context: ManagedObjectContext, model: CheckedModel, depth: Int) throws {
        guard let entity = object.entity else { return }
        for attribute in entity.attributes where !attribute.isDerived && !attribute.isTransient && attribute.compositeIndex == nil {
            if let value = value(for: attribute) { try object.setValue(value, forKey: attribute.name) }
        }
        guard depth < 3 else { return }
        for relationship in entity.relationships where !relationship.isOptional || relationship.minCount > 0 {
            guard let destination = concrete(relationship.destinationEntityIndex, in: model) else { continue }
            let member = try context.insertNewObject(forEntityName: destination.name)
            try fill(member, in: context, model: model, depth: depth + 1)
            try object.setValue(relationship.isToMany ? [member] : member, forKey: relationship.name)
        }
    }
}
