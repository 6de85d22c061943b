// Fills a new object with a value for every stored attribute and a destination
// for every required relationship, so a save into a fixture store passes the
// model's validation and writes every column type.

import Foundation
@testable import Faultline

enum SaveFiller {
    private static let nextNumber = Locked<Int64>(0)

    /// A plausible value of `type` (within the fixtures' validation rules).
    /// Strings are unique per call: uniqueness constraints (SwiftData's `id`) hold.
    static func value(for attribute: CheckedAttribute) -> Any? {
        switch attribute.attributeType {
        case .stringAttributeType: return "Faultline \(attribute.name) \(UUID().uuidString.prefix(8))"
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            // Unique per call (uniqueness constraints over numbers hold), within
            // Integer 16; small where the model bounds the value.
            let bounded = attribute.validationRules.contains { if case .maximumValue = $0 { true } else { false } }
            return bounded ? Int64(3) : 20_000 + nextNumber.withLock { $0 += 1; return $0 % 12_000 }
        case .booleanAttributeType: return true
        case .doubleAttributeType, .floatAttributeType: return 2.5
        case .dateAttributeType: return Date(timeIntervalSinceReferenceDate: 800_000_000.25)
        case .decimalAttributeType: return Decimal(string: "12.34")
        case .binaryDataAttributeType, .transformableAttributeType: return Data([0xFA, 0x17, 0x00, 0x01])
        case .UUIDAttributeType: return UUID()
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
        guard depth < 8 else { return }
        for relationship in entity.relationships where !relationship.isOptional || relationship.minCount > 0 {
            // Set through an inverse already (a cycle of required relationships)?
            let current = object.value(forKey: relationship.name)
            if relationship.isToMany ? ((current as? [ManagedObject])?.count ?? 0) >= max(relationship.minCount, 1)
                : current is ManagedObject { continue }
            guard let destination = concrete(relationship.destinationEntityIndex, in: model) else { continue }
            // A to-one whose inverse is to-many (or absent) takes an existing
            // destination, as an app would (an account's owner): a chain of new
            // objects would not end where the relationship is reflexive.
            if !relationship.isToMany, relationship.inverseIsToMany != false,
               let existing = try context.fetch(FetchRequest(entityName: model.entities[relationship.destinationEntityIndex].name))
                   .first(where: { !$0.objectID.isTemporaryID }) {
                try object.setValue(existing, forKey: relationship.name)
                continue
            }
            var members: [ManagedObject] = []
            for _ in 0..<(relationship.isToMany ? max(relationship.minCount, 1) : 1) {
                members.append(try context.insertNewObject(forEntityName: destination.name))
            }
            try object.setValue(relationship.isToMany ? members : members[0], forKey: relationship.name)
            for member in members { try fill(member, in: context, model: model, depth: depth + 1) }
        }
    }
}

extension SaveFiller {
    /// The first concrete entity with rows whose objects can be deleted
    /// without breaking a rule: no relationship denies it, and every inverse
    /// it would be removed from may be empty.
    static func deletableEntity(in model: CheckedModel, reading container: PersistentContainer) throws -> String? {
        let context = container.newBackgroundContext()
        for entity in model.entities where !entity.isAbstract {
            let safe = entity.relationships.allSatisfy { relationship in
                guard relationship.deleteRule != .deny else { return false }
                guard let inverse = relationship.inverseIndex else { return true }
                let destination = model.entities[relationship.destinationEntityIndex]
                guard inverse < destination.relationships.count else { return false }
                let back = destination.relationships[inverse]
                return back.isOptional && back.minCount == 0
            }
            guard safe else { continue }
            let count = try context.performAndWait {
                var request = FetchRequest(entityName: entity.name)
                request.includesSubentities = false
                return try context.count(for: request)
            }
            if count > 0 { return entity.name }
        }
        return nil
    }
}
