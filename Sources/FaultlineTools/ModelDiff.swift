import Faultline
import Foundation

/// The differences between two checked model versions, entity by entity, with
/// entities and properties matched as lightweight migration matches them:
/// by the new element's renaming identifier, else by name.
struct ModelDiff {
    let old: ModelVersion
    let new: ModelVersion
    /// What changed, one line each.
    private(set) var changes: [String] = []
    /// Data-dependent conditions a lightweight migration of a store with rows has.
    private(set) var dataConditions: [String] = []
    /// How many of the old model's entities the new one carries (by name or
    /// renaming identifier); the rows of the others are deleted.
    private(set) var carriedEntities = 0

    init(old: ModelVersion, new: ModelVersion) {
        self.old = old
        self.new = new
        compare()
    }

    private var oldModel: CheckedModel { old.model }
    private var newModel: CheckedModel { new.model }

    private mutating func compare() {
        var matched: Set<Int> = []
        for entity in newModel.entities {
            let renamed = entity.renamingIdentifier.flatMap { oldModel.entity(named: $0) }
            guard let previous = renamed ?? oldModel.entity(named: entity.name), !matched.contains(previous.index) else {
                changes.append("+ entity \(entity.name)")
                continue
            }
            matched.insert(previous.index)
            if previous.name != entity.name { changes.append("~ entity \(previous.name) renamed to \(entity.name)") }
            compare(previous, entity)
        }
        for entity in oldModel.entities where !matched.contains(entity.index) {
            changes.append("- entity \(entity.name) (its rows are deleted)")
        }
        carriedEntities = matched.count
    }

    private mutating func compare(_ previous: CheckedEntity, _ entity: CheckedEntity) {
        let before = changes.count
        defer {
            if changes.count == before, previous.versionHash != entity.versionHash {
                changes.append("~ \(entity.name): version hash changed (by an element this diff does not itemise)")
            }
        }
        let parent = { (model: CheckedModel, entity: CheckedEntity) in entity.superentityIndex.map { model.entities[$0].name } ?? "none" }
        if parent(oldModel, previous) != parent(newModel, entity) {
            changes.append("~ \(entity.name): parent \(parent(oldModel, previous)) → \(parent(newModel, entity))")
        }
        if previous.isAbstract != entity.isAbstract { changes.append("~ \(entity.name): abstract \(previous.isAbstract) → \(entity.isAbstract)") }
        compareAttributes(previous, entity)
        compareRelationships(previous, entity)
        let constraints = { (entity: CheckedEntity) in
            Set(entity.uniquenessConstraints.map { $0.map { ModelPrinter.propertyName($0, in: entity) }.joined(separator: ", ") })
        }
        for added in constraints(entity).subtracting(constraints(previous)).sorted() {
            changes.append("+ \(entity.name): unique (\(added))")
            dataConditions.append("existing \(entity.name) rows must not repeat (\(added))")
        }
        for removed in constraints(previous).subtracting(constraints(entity)).sorted() {
            changes.append("- \(entity.name): unique (\(removed))")
        }
    }

    private func key(_ attribute: CheckedAttribute) -> String { attribute.keyPath.joined(separator: ".") }

    private mutating func compareAttributes(_ previous: CheckedEntity, _ entity: CheckedEntity) {
        var seen: Set<String> = []
        for attribute in entity.attributes where attribute.declaringEntityIndex == entity.index {
            let name = key(attribute)
            let oldName = new.propertyRenames[entity.name]?[name] ?? name
            guard let before = previous.attributes.first(where: { key($0) == oldName }) ?? previous.attributes.first(where: { key($0) == name })
            else {
                changes.append("+ \(entity.name).\(name): \(InspectFormat.type(attribute.attributeType))")
                if !attribute.isOptional, attribute.defaultValue == nil, !attribute.isTransient, !attribute.isDerived {
                    dataConditions.append("\(entity.name).\(name) is new, required and has no default: the store must have no \(entity.name) rows")
                }
                continue
            }
            seen.insert(key(before))
            if key(before) != name { changes.append("~ \(entity.name).\(key(before)) renamed to \(name)") }
            let label = "\(entity.name).\(name)"
            func change(_ what: String, _ from: some CustomStringConvertible, _ to: some CustomStringConvertible) {
                if from.description != to.description { changes.append("~ \(label): \(what) \(from) → \(to)") }
            }
            change("type", InspectFormat.type(before.attributeType), InspectFormat.type(attribute.attributeType))
            change("optional", before.isOptional, attribute.isOptional)
            change("default", before.defaultValue.map { "\($0)" } ?? "none", attribute.defaultValue.map { "\($0)" } ?? "none")
            change("transient", before.isTransient, attribute.isTransient)
            change("indexed", before.isIndexed, attribute.isIndexed)
            change("transformer", before.valueTransformerName ?? "none", attribute.valueTransformerName ?? "none")
            change("external storage", before.allowsExternalBinaryDataStorage, attribute.allowsExternalBinaryDataStorage)
            change("derivation", before.derivation.map { "\($0)" } ?? "none", attribute.derivation.map { "\($0)" } ?? "none")
            if before.isOptional, !attribute.isOptional, attribute.defaultValue == nil, !attribute.isTransient {
                dataConditions.append("\(label) became required without a default: no \(entity.name) row may hold NULL in it")
            }
        }
        for attribute in previous.attributes where attribute.declaringEntityIndex == previous.index && !seen.contains(key(attribute)) {
            changes.append("- \(entity.name).\(key(attribute))")
        }
    }

    private mutating func compareRelationships(_ previous: CheckedEntity, _ entity: CheckedEntity) {
        var seen: Set<String> = []
        for relationship in entity.relationships where relationship.declaringEntityIndex == entity.index {
            let oldName = new.propertyRenames[entity.name]?[relationship.name] ?? relationship.name
            let label = "\(entity.name).\(relationship.name)"
            guard let before = previous.relationship(named: oldName) ?? previous.relationship(named: relationship.name) else {
                changes.append("+ \(label) -> \(newModel.entities[relationship.destinationEntityIndex].name)")
                continue
            }
            seen.insert(before.name)
            if before.name != relationship.name { changes.append("~ \(entity.name).\(before.name) renamed to \(relationship.name)") }
            func change(_ what: String, _ from: some CustomStringConvertible, _ to: some CustomStringConvertible) {
                if from.description != to.description { changes.append("~ \(label): \(what) \(from) → \(to)") }
            }
            change("destination", oldModel.entities[before.destinationEntityIndex].name, newModel.entities[relationship.destinationEntityIndex].name)
            change("to-many", before.isToMany, relationship.isToMany)
            change("ordered", before.isOrdered, relationship.isOrdered)
            change("optional", before.isOptional, relationship.isOptional)
            change("inverse", ModelPrinter.inverseName(before, model: oldModel) ?? "none",
                   ModelPrinter.inverseName(relationship, model: newModel) ?? "none")
            change("delete rule", "\(before.deleteRule)", "\(relationship.deleteRule)")
            change("transient", before.isTransient, relationship.isTransient)
            change("count", "\(before.minCount)...\(before.maxCount)", "\(relationship.minCount)...\(relationship.maxCount)")
        }
        for relationship in previous.relationships where relationship.declaringEntityIndex == previous.index && !seen.contains(relationship.name) {
            changes.append("- \(entity.name).\(relationship.name)")
        }
    }
}
