// Mapping inference: which old entity and property each new one comes from,
// and whether the change between them is one lightweight migration may make.
//
// Rules (Core Data's `NSMappingModel.inferredMappingModel` is the reference):
//  - A new entity comes from the old entity named by its renaming identifier,
//    else from the old entity of the same name; a new property likewise,
//    within the matched entity (composite leaves by key path; a renamed
//    composite's leaves come from the same leaves under its old name).
//  - Attribute types may stay or widen: integer 16 → 32 → 64, any integer to
//    float, double or decimal, float to double, float or double to decimal.
//    Any other type change is refused (`unsupportedChange`). Core Data also
//    refuses these for inference; it accepts some narrowing that Faultline
//    refuses because values could be cut.
//  - A relationship keeps its data when the old one's destination maps to the
//    new destination; its storage may change (to-one ↔ to-many, inverse
//    added or removed). Data moves through old (source, destination) pairs.
//    When a to-one without inverse becomes a to-many without inverse, a
//    destination row pointed at by several sources keeps the lowest source key
//    (a hidden key holds one owner); Core Data does not document this case.
//  - A required attribute gets its default for NULL (or new) values; without
//    a default and with NULLs present, the migration fails (`missingDefault`).
//    Core Data fails the same way, at validation time.
//  - A required to-one (new, or made required) that existing rows would be
//    left without fails the migration (`missingRelationship`), as Core Data's
//    validation does; a custom stage's `didMigrate` may fill it first.
//  - A new attribute with a default gets the default in existing rows.
//  - Derived attributes whose derivation or type changed, or that are new, are
//    recomputed from the migrated data; `now()` becomes the migration's time.
//  - Differences: an entity changing hierarchy keeps its rows (Core Data too);
//    the migration never creates Core Data's `ANSCKRECORDMETADATA` or history
//    tables; removed entities' rows are deleted with no delete rules applied.

import Foundation

/// The inferred correspondence between an old and a new model.
struct MigrationMapping {
    let old: ModelVersion
    let new: ModelVersion
    let oldSchema: StoreSchema
    let newSchema: StoreSchema
    /// New entity index → the old entity its rows come from.
    let sourceEntity: [Int?]
    /// Old entity index → the new entity its rows go to.
    let targetEntity: [Int?]

    init(from old: ModelVersion, to new: ModelVersion) throws {
        self.old = old
        self.new = new
        oldSchema = try StoreSchema(compiling: old.model)
        newSchema = try StoreSchema(compiling: new.model)
        var source: [Int?] = []
        var target = [Int?](repeating: nil, count: old.model.entities.count)
        for entity in new.model.entities {
            let oldName = entity.renamingIdentifier.flatMap { old.model.entityIndexByName[$0] != nil ? $0 : nil } ?? entity.name
            let match = old.model.entityIndexByName[oldName].flatMap { target[$0] == nil ? $0 : nil }
            source.append(match)
            if let match { target[match] = entity.index }
        }
        sourceEntity = source
        targetEntity = target
        try validate()
    }

    /// The old attribute a new one comes from.
    func oldAttribute(_ attribute: CheckedAttribute, of entity: CheckedEntity) -> CheckedAttribute? {
        guard let oldEntity = sourceEntity[entity.index].map({ old.model.entities[$0] }) else { return nil }
        let name = new.renamedFrom(attribute.name, in: entity) ?? attribute.name
        return oldEntity.attribute(named: name) ?? (name != attribute.name ? oldEntity.attribute(named: attribute.name) : nil)
    }

    /// The old relationship a new one comes from, when its destination maps to
    /// the new destination.
    func oldRelationship(_ relationship: CheckedRelationship, of entity: CheckedEntity) -> CheckedRelationship? {
        guard let oldEntity = sourceEntity[entity.index].map({ old.model.entities[$0] }) else { return nil }
        let name = new.renamedFrom(relationship.name, in: entity) ?? relationship.name
        guard let match = oldEntity.relationship(named: name) ?? oldEntity.relationship(named: relationship.name),
              !match.isTransient, targetEntity[match.destinationEntityIndex] == relationship.destinationEntityIndex
        else { return nil }
        return match
    }

    /// Refuses changes lightweight migration cannot make.
    private func validate() throws {
        for entity in new.model.entities {
            for attribute in entity.attributes where attribute.isStored && attribute.declaringEntityIndex == entity.index {
                guard let previous = oldAttribute(attribute, of: entity), previous.isStored else { continue }
                if !Self.canConvert(previous.attributeType, to: attribute.attributeType) {
                    throw MigrationError.unsupportedChange(
                        entity: entity.name, property: attribute.name,
                        reason: "type changed from \(previous.attributeType) to \(attribute.attributeType), which is not a widening")
                }
            }
        }
    }

    /// Same type, or a widening that keeps every value.
    static func canConvert(_ from: AttributeType, to: AttributeType) -> Bool {
        if from == to { return true }
        func width(_ type: AttributeType) -> Int? {
            switch type {
            case .integer16AttributeType: 16
            case .integer32AttributeType: 32
            case .integer64AttributeType: 64
            default: nil
            }
        }
        if let a = width(from), let b = width(to) { return a <= b }
        switch (from, to) {
        case (.integer16AttributeType, .doubleAttributeType), (.integer32AttributeType, .doubleAttributeType),
             (.integer64AttributeType, .doubleAttributeType), (.integer16AttributeType, .floatAttributeType),
             (.integer32AttributeType, .floatAttributeType), (.integer64AttributeType, .floatAttributeType),
             (.integer16AttributeType, .decimalAttributeType), (.integer32AttributeType, .decimalAttributeType),
             (.integer64AttributeType, .decimalAttributeType), (.floatAttributeType, .doubleAttributeType),
             (.floatAttributeType, .decimalAttributeType), (.doubleAttributeType, .decimalAttributeType):
            return true
        default:
            return false
        }
    }
}
