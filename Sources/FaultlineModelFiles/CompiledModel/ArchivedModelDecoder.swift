// Maps an archived `NSManagedObjectModel` to a `ManagedObjectModel` and the
// `ModelFileExtras` a model file would give. Split by topic:
//   ArchivedModelDecoder.swift               the model, entities, inheritance, links
//   ArchivedModelDecoder+Properties.swift    attributes and relationships
//   ArchivedModelDecoder+Values.swift        default values and validation predicates
//   ArchivedFields.swift                     the keys of one object, consumed one by one
//
// Passes: (1) declare every entity of `NSEntities`, by its archive object;
// (2) decode each entity's own properties, recording relationships with their
// destination and inverse references (a sub-entity archives its inherited
// properties again, as proxies, as the superentity's objects or as copies of
// its own; each is read once, as the ancestor's); (3) link superentities, then
// destinations, then inverses, by object identity (the archive's `CF$UID`),
// falling back to the names Core Data also stores (`_NSDestinationEntityName`,
// `_NSInverseRelationshipName`).
//
// The archive spells what Core Data computes, not what the editor wrote: every
// property has a renaming identifier (its name, unless renamed) and every
// attribute its value class (`NSString` for strings). Those defaults are
// dropped so the model equals the one read from the model file; anything the
// archive says beyond them is kept.

import Foundation
import FaultlineModel

struct ArchivedModelDecoder {
    let archive: KeyedArchive
    let file: String
    var warnings: [ModelFileWarning] = []
    var extras = ModelFileExtras()
    let model = ManagedObjectModel()

    var entityByUID: [Int: EntityDescription] = [:]
    var entityByName: [String: EntityDescription] = [:]
    var relationshipByUID: [Int: RelationshipDescription] = [:]
    var pendingSuperentities: [(entity: EntityDescription, superentity: KeyedArchive.Object, path: String)] = []
    var pendingRelationships: [PendingRelationship] = []
    var pendingInherited: [(entity: EntityDescription, name: String, path: String)] = []

    struct PendingRelationship {
        let relationship: RelationshipDescription
        let path: String
        let destination: KeyedArchive.Object?
        let destinationName: String?
        let inverse: KeyedArchive.Object?
        let inverseName: String?
    }

    init(archive: KeyedArchive, file: String) {
        self.archive = archive
        self.file = file
    }

    /// Decodes the root object; warnings and extras are left on the decoder.
    mutating func decode() throws(CompiledModelError) -> ManagedObjectModel {
        let root = try attempt("/") { () throws(KeyedArchive.Failure) in try archive.object(archive.root) }
        guard let root, root.className == "NSManagedObjectModel" else {
            throw CompiledModelError(.notAModel, "the archive's root is \(root.map { "an \($0.className)" } ?? "null"), not an NSManagedObjectModel",
                                     file: file, path: "/")
        }
        var fields = ArchivedFields(root, path: "")
        let entries = try attempt("/NSEntities") { () throws(KeyedArchive.Failure) in try archive.dictionary(fields.take("NSEntities")) } ?? []
        var entities: [(EntityDescription, KeyedArchive.Object, String)] = []
        for (name, reference) in entries.sorted(by: { $0.key < $1.key }) {
            let path = "/NSEntities/\(name)"
            let object = try requireObject(reference, className: "NSEntityDescription", path: path)
            entities.append((try declareEntity(object, path: path), object, path))
        }
        model.entities = entities.map(\.0)
        for (entity, object, path) in entities { try decodeEntityBody(entity, object, path: path) }
        try linkSuperentities()
        dropInheritedCopies()
        for (entity, name, path) in pendingInherited where entity.superentity?.propertiesByName[name] == nil {
            warn(path, "property '\(name)' is archived as inherited, but no superentity of '\(entity.name ?? "")' has it; it is left out")
        }
        try linkRelationships()

        let identifierReference = fields.take("NSVersionIdentifiers")
        let identifiers = try attempt("/NSVersionIdentifiers") { () throws(KeyedArchive.Failure) in
            var names: [String] = []
            for item in try archive.collection(identifierReference) ?? [] {
                if let name = try archive.string(item) { names.append(name) }
            }
            return names
        }
        extras.versionIdentifier = identifiers.sorted().first { !$0.isEmpty }
        // All of them, the empty one too: a store records them as they are.
        model.versionIdentifiers = Set(identifiers)
        if identifiers.filter({ !$0.isEmpty }).count > 1 {
            warn("/NSVersionIdentifiers", "the model has \(identifiers.count) version identifiers; only '\(extras.versionIdentifier ?? "")' is kept")
        }
        try decodeConfigurations(fields.take("NSConfigurations"))
        if try attempt("/NSFetchRequestTemplates", { () throws(KeyedArchive.Failure) in try archive.dictionary(fields.take("NSFetchRequestTemplates")) })?.isEmpty == false {
            warn("/NSFetchRequestTemplates", "fetch request templates are archived as NSPredicate objects, which Faultline does not read; they are left out")
        }
        finish(fields, className: root.className)
        return model
    }

    // MARK: - Entities

    private mutating func declareEntity(_ object: KeyedArchive.Object, path: String) throws(CompiledModelError) -> EntityDescription {
        guard let name = try attempt(path + "/NSEntityName", { () throws(KeyedArchive.Failure) in try archive.string(object.fields["NSEntityName"]) }),
              !name.isEmpty else {
            throw CompiledModelError(.notAModel, "an entity has no name", file: file, path: path)
        }
        guard entityByName[name] == nil else {
            throw CompiledModelError(.inconsistent, "entity name '\(name)' is used more than once", file: file, path: path)
        }
        let entity = EntityDescription()
        entity.name = name
        entityByUID[object.uid] = entity
        entityByName[name] = entity
        return entity
    }

    private mutating func decodeEntityBody(_ entity: EntityDescription, _ object: KeyedArchive.Object, path: String) throws(CompiledModelError) {
        var fields = ArchivedFields(object, path: path)
        _ = fields.take("NSEntityName")
        if let className = try string(&fields, "NSClassNameForEntity"), !className.isEmpty {
            entity.managedObjectClassName = className
        }
        entity.isAbstract = try bool(&fields, "NSIsAbstract") ?? false
        entity.renamingIdentifier = try renamingIdentifier(&fields, name: entity.name)
        entity.versionHashModifier = try string(&fields, "NSVersionHashModifier")
        entity.userInfo = try userInfo(&fields)
        if let superentity = try attempt(path + "/NSSuperentity", { () throws(KeyedArchive.Failure) in try archive.object(fields.take("NSSuperentity")) }) {
            pendingSuperentities.append((entity, superentity, path))
        }
        entity.uniquenessConstraints = try uniquenessConstraints(fields.take("NSUniqueTuples"), path: path + "/NSUniqueTuples")
        let fetchIndexes = try decodeFetchIndexes(fields.take("NSFetchIndexDescriptions"), path: path + "/NSFetchIndexDescriptions")
        entity.compoundIndexes = try decodeCompoundIndexes(fields.take("NSCompoundIndexes"), path: path + "/NSCompoundIndexes")

        let properties = try attempt(path + "/NSProperties") { () throws(KeyedArchive.Failure) in try archive.dictionary(fields.take("NSProperties")) } ?? []
        var decoded: [PropertyDescription] = []
        for (name, reference) in properties.sorted(by: { $0.key < $1.key }) {
            let propertyPath = "\(path)/NSProperties/\(name)"
            guard let property = try attempt(propertyPath, { () throws(KeyedArchive.Failure) in try archive.object(reference) }) else {
                warn(propertyPath, "property '\(name)' is null; it is left out")
                continue
            }
            let isProxy = property.className == "_NSPropertyDescriptionProxy"
            if try isProxy ? true : isInherited(property, in: object, path: propertyPath) {
                pendingInherited.append((entity, name, propertyPath))
                continue
            }
            switch property.className {
            case "NSAttributeDescription", "NSDerivedAttributeDescription":
                decoded.append(try decodeAttribute(property, path: propertyPath))
            case "NSRelationshipDescription":
                decoded.append(try decodeRelationship(property, path: propertyPath))
            default:
                warn(propertyPath, "property '\(name)' is an \(property.className), which Faultline does not read; it is left out")
            }
        }
        entity.properties = decoded
        entity.indexes = fetchIndexes
        dropIndexFlagsCovered(by: fetchIndexes, in: entity)
        finish(fields, className: object.className)
    }

    /// A sub-entity archives its inherited properties too, as proxies or as
    /// the superentity's own objects (whose `NSEntity` is the superentity).
    private func isInherited(_ property: KeyedArchive.Object, in entity: KeyedArchive.Object, path: String) throws(CompiledModelError) -> Bool {
        let owner = try attempt(path + "/NSEntity") { () throws(KeyedArchive.Failure) in try archive.object(property.fields["NSEntity"]) }
        return owner.map { $0.uid != entity.uid } ?? false
    }

    /// `NSUniqueTuples`: an array of arrays of property names (or properties).
    private func uniquenessConstraints(_ reference: PropertyListObject?, path: String) throws(CompiledModelError) -> [[String]] {
        try attempt(path) { () throws(KeyedArchive.Failure) in
            var constraints: [[String]] = []
            for tuple in try archive.collection(reference) ?? [] {
                var names: [String] = []
                for item in try archive.collection(tuple) ?? [] {
                    if case .string(let name) = try archive.resolve(item) {
                        names.append(name)
                    } else if let property = try archive.object(item), let name = try archive.string(property.fields["NSPropertyName"]) {
                        names.append(name)
                    } else {
                        throw KeyedArchive.Failure("a uniqueness constraint names no property")
                    }
                }
                if !names.isEmpty { constraints.append(names) }
            }
            return constraints
        }
    }

    /// `NSConfigurations`: configuration name → set of entities.
    private mutating func decodeConfigurations(_ reference: PropertyListObject?) throws(CompiledModelError) {
        let path = "/NSConfigurations"
        for entry in try attempt(path, { () throws(KeyedArchive.Failure) in try archive.dictionary(reference) }) ?? [] {
            let (name, members) = (entry.key, entry.value)
            var configuration = ModelConfiguration(name: name, entityNames: [])
            for member in try attempt(path + "/" + name, { () throws(KeyedArchive.Failure) in try archive.collection(members) }) ?? [] {
                let object = try requireObject(member, className: "NSEntityDescription", path: path + "/" + name)
                guard let entity = entityByUID[object.uid], let entityName = entity.name else {
                    throw CompiledModelError(.inconsistent, "configuration '\(name)' lists an entity that is not in the model", file: file, path: path + "/" + name)
                }
                configuration.entityNames.append(entityName)
            }
            configuration.entityNames.sort()
            extras.configurations.append(configuration)
        }
        extras.configurations.sort { $0.name < $1.name }
    }

    // MARK: - Links

    private mutating func linkSuperentities() throws(CompiledModelError) {
        for (entity, superentity, path) in pendingSuperentities {
            guard let parent = entityByUID[superentity.uid] else {
                throw CompiledModelError(.inconsistent, "the superentity of '\(entity.name ?? "")' is not an entity of the model",
                                         file: file, path: path + "/NSSuperentity")
            }
            guard !entity.reachesThroughSubentities(parent) else {
                throw CompiledModelError(.inconsistent, "making '\(parent.name ?? "")' the superentity of '\(entity.name ?? "")' creates an inheritance cycle",
                                         file: file, path: path + "/NSSuperentity")
            }
            parent.subentities.append(entity)
        }
        for (entity, _, path) in pendingSuperentities where entity.ancestryFromRoot.count > ModelFileDecoder.maximumInheritanceDepth {
            throw CompiledModelError(.inconsistent, "entity '\(entity.name ?? "")' is more than \(ModelFileDecoder.maximumInheritanceDepth) levels below its root entity",
                                     file: file, path: path + "/NSSuperentity")
        }
    }

    /// Sub-entities archive the properties they inherit as objects of their
    /// own (`NSEntity` the sub-entity: Moody, CoreDataPlus, Apple's Notes): a
    /// property an ancestor declares is the ancestor's, read once where Core
    /// Data has it (a sub-entity cannot redeclare one). References to a copy
    /// (an inverse) are sent to the ancestor's property.
    private mutating func dropInheritedCopies() {
        func depth(_ entity: EntityDescription) -> Int {
            var depth = 0
            var ancestor = entity.superentity
            while let next = ancestor, depth <= model.entities.count { depth += 1; ancestor = next.superentity }
            return depth
        }
        var replacement: [ObjectIdentifier: PropertyDescription] = [:]
        // Roots first, so an ancestor's own copies are gone before its descendants are read.
        for entity in model.entities.sorted(by: { depth($0) < depth($1) }) where entity.superentity != nil {
            var inherited: [String: PropertyDescription] = [:]
            var ancestor = entity.superentity
            var hops = 0
            while let next = ancestor, hops <= model.entities.count {
                for property in next.properties where inherited[property.name] == nil { inherited[property.name] = property }
                ancestor = next.superentity
                hops += 1
            }
            let own = entity.properties.filter { property in
                guard let original = inherited[property.name] else { return true }
                replacement[ObjectIdentifier(property)] = original
                return false
            }
            if own.count != entity.properties.count { entity.properties = own }
        }
        guard !replacement.isEmpty else { return }
        for (uid, relationship) in relationshipByUID {
            if let original = replacement[ObjectIdentifier(relationship)] as? RelationshipDescription { relationshipByUID[uid] = original }
        }
        pendingRelationships.removeAll { replacement[ObjectIdentifier($0.relationship)] != nil }
    }

    private mutating func linkRelationships() throws(CompiledModelError) {
        for pending in pendingRelationships {
            let destination = pending.destination.flatMap { entityByUID[$0.uid] } ?? pending.destinationName.flatMap { entityByName[$0] }
            guard let destination else {
                throw CompiledModelError(.inconsistent, "relationship '\(pending.relationship.name)' leads to no entity of the model",
                                         file: file, path: pending.path + "/NSDestinationEntity")
            }
            pending.relationship.destinationEntity = destination
        }
        for pending in pendingRelationships {
            guard let destination = pending.relationship.destinationEntity else { continue }
            let byIdentity = pending.inverse.flatMap { relationshipByUID[$0.uid] }
            guard let inverse = byIdentity ?? pending.inverseName.flatMap({ destination.relationshipsByName[$0] }) else {
                if pending.inverse != nil || pending.inverseName != nil {
                    throw CompiledModelError(.inconsistent, "the inverse of relationship '\(pending.relationship.name)' is not a relationship of the model",
                                             file: file, path: pending.path + "/NSInverseRelationship")
                }
                continue
            }
            guard let holder = inverse.entity, destination.isKindOf(entity: holder) else {
                throw CompiledModelError(.inconsistent, "the inverse '\(inverse.name)' of relationship '\(pending.relationship.name)' belongs neither to its destination nor to one of its ancestors",
                                         file: file, path: pending.path + "/NSInverseRelationship")
            }
            pending.relationship.inverseRelationship = inverse
        }
    }
}
