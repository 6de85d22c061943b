import Faultline
import Foundation

/// The text `model inspect` prints for one checked version: entities with
/// their attributes and relationships, then the SQL schema.
enum ModelPrinter {
    static func entities(_ model: CheckedModel, schema: StoreSchema) -> [String] {
        var lines: [String] = []
        for entity in model.entities {
            var header = "entity \(entity.name) (number \(entity.number)"
            if let table = schema.entity(named: entity.name)?.table { header += ", table \(table)" }
            header += ")"
            if let parent = entity.superentityIndex { header += " : \(model.entities[parent].name)" }
            if entity.isAbstract { header += " abstract" }
            if let old = entity.renamingIdentifier, !old.isEmpty { header += " renamed from \(old)" }
            lines.append(header)
            for attribute in entity.attributes {
                lines.append("  attribute " + self.attribute(attribute, in: entity, model: model))
            }
            for relationship in entity.relationships {
                lines.append("  relationship " + self.relationship(relationship, in: entity, model: model))
            }
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
                lines.append("  unique (\(constraint.map { propertyName($0, in: entity) }.joined(separator: ", ")))")
            }
            for index in entity.compoundIndexes where !index.isEmpty {
                lines.append("  compound index (\(index.map { propertyName($0, in: entity) }.joined(separator: ", ")))")
            }
            for index in entity.fetchIndexes where index.declaringEntityIndex == entity.index {
                lines.append("  fetch index \(index.name) (\(index.elements.count) element\(index.elements.count == 1 ? "" : "s"))")
            }
        }
        return lines
    }

    static func propertyName(_ reference: PropertyReference, in entity: CheckedEntity) -> String {
        switch reference {
        case .attribute(let index): entity.attributes.indices.contains(index) ? entity.attributes[index].name : "?"
        case .relationship(let index): entity.relationships.indices.contains(index) ? entity.relationships[index].name : "?"
        case .composite(let index): entity.composites.indices.contains(index) ? entity.composites[index].name : "?"
        }
    }

    static func attribute(_ attribute: CheckedAttribute, in entity: CheckedEntity, model: CheckedModel) -> String {
        var text = "\(attribute.keyPath.count > 1 ? attribute.keyPath.joined(separator: ".") : attribute.name): \(InspectFormat.type(attribute.attributeType))"
        var flags: [String] = [attribute.isOptional ? "optional" : "required"]
        if attribute.isTransient { flags.append("transient") }
        if attribute.isIndexed { flags.append("indexed") }
        if let value = attribute.defaultValue { flags.append("default \(value)") }
        if let name = attribute.valueTransformerName, !name.isEmpty { flags.append("transformer \(name)") }
        if attribute.allowsExternalBinaryDataStorage { flags.append("external storage") }
        if attribute.isDerived { flags.append("derived") }
        if attribute.declaringEntityIndex != entity.index {
            flags.append("inherited from \(model.entities[attribute.declaringEntityIndex].name)")
        }
        text += " " + flags.joined(separator: ", ")
        return text
    }

    static func relationship(_ relationship: CheckedRelationship, in entity: CheckedEntity, model: CheckedModel) -> String {
        let destination = model.entities[relationship.destinationEntityIndex]
        let text = "\(relationship.name) -> \(destination.name)"
        var flags: [String] = [relationship.isToMany ? (relationship.isOrdered ? "to-many ordered" : "to-many") : "to-one"]
        flags.append(relationship.isOptional ? "optional" : "required")
        if let inverse = inverseName(relationship, model: model) { flags.append("inverse \(inverse)") } else { flags.append("no inverse") }
        flags.append("delete \(String(describing: relationship.deleteRule).replacingOccurrences(of: "DeleteRule", with: ""))")
        if relationship.isTransient { flags.append("transient") }
        if relationship.declaringEntityIndex != entity.index {
            flags.append("inherited from \(model.entities[relationship.declaringEntityIndex].name)")
        }
        return text + " " + flags.joined(separator: ", ")
    }

    static func inverseName(_ relationship: CheckedRelationship, model: CheckedModel) -> String? {
        guard let inverse = relationship.inverseIndex else { return nil }
        let relationships = model.entities[relationship.destinationEntityIndex].relationships
        return relationships.indices.contains(inverse) ? relationships[inverse].name : nil
    }

    /// Tables, indexes and triggers, each with the statement that creates it.
    static func schema(_ schema: StoreSchema) -> [String] {
        var lines = ["schema: \(schema.tables.count) tables, \(schema.indexes.count) indexes, \(schema.triggers.count) triggers"]
        lines.append("  tables:")
        for table in schema.tables { lines.append("    \(table.createStatement);") }
        lines.append("  indexes:" + (schema.indexes.isEmpty ? " none" : ""))
        for index in schema.indexes { lines.append("    \(index.createStatement);") }
        lines.append("  triggers:" + (schema.triggers.isEmpty ? " none" : ""))
        for trigger in schema.triggers { lines.append("    \(trigger.createStatement);") }
        return lines
    }
}
