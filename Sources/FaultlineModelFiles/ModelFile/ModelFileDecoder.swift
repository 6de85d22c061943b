// Maps one parsed `contents` document to a `ManagedObjectModel` and its
// `ModelFileExtras`. Split by topic:
//   ModelFileDecoder.swift               the document, entities, inheritance, links
//   ModelFileDecoder+Attributes.swift    attributes: types, defaults, rules, composites
//   ModelFileDecoder+Members.swift       relationships, constraints, indexes,
//                                        fetched properties, user info, configurations,
//                                        fetch requests, layout
//
// Passes: (1) collect entity names and `<composite>` definitions; (2) decode each
// entity's members, recording relationships by destination name; (3) link parents,
// then destinations, then inverses; (4) model-level configurations, fetch
// requests, user info and layout, which may name any entity.
// Every XML attribute an element carries is either consumed, listed as
// code-generation-only, or reported as a warning (see `XMLAttributes.finish`).

import Foundation
import FaultlineModel

struct ModelFileDecoder {
    let tree: ModelFileXMLTree
    let file: String
    var warnings: [ModelFileWarning] = []
    var extras = ModelFileExtras()
    let model = ManagedObjectModel()

    var entityByName: [String: EntityDescription] = [:]
    var compositeDefinitions: [String: ModelFileXMLNode] = [:]
    var usedComposites: Set<String> = []
    var pendingParents: [(entity: EntityDescription, parentName: String, node: ModelFileXMLNode)] = []
    var pendingRelationships: [PendingRelationship] = []

    struct PendingRelationship {
        let relationship: RelationshipDescription
        let entity: EntityDescription
        let node: ModelFileXMLNode
        let destinationName: String
        let inverseName: String?
        let inverseEntityName: String?
    }

    init(tree: ModelFileXMLTree, file: String) {
        self.tree = tree
        self.file = file
    }

    /// Decodes the document; warnings and extras are left on the decoder.
    mutating func decode() throws(ModelFileError) -> ManagedObjectModel {
        let root = tree.root
        guard root.name == "model" else {
            throw error(.notAModel, "the root element is <\(root.name)>, not <model>: this is not a Core Data model file", root)
        }
        var attributes = XMLAttributes(root)
        if let identifier = attributes.take("userDefinedModelVersionIdentifier"), !identifier.isEmpty {
            extras.versionIdentifier = identifier
        }
        for key in ModelFileFormat.documentAttributes.sorted() {
            if let value = attributes.take(key) { extras.documentAttributes[key] = value }
        }
        finish(attributes, element: "model")

        var entityNodes: [(EntityDescription, ModelFileXMLNode)] = []
        var laterNodes: [ModelFileXMLNode] = []
        for child in tree.children(of: root) {
            switch child.name {
            case "entity":
                entityNodes.append((try declareEntity(child), child))
            case "composite":
                try declareComposite(child)
            case "configuration", "fetchRequest", "userInfo", "elements":
                laterNodes.append(child)
            default:
                warnUnknownElement(child, in: "model")
            }
        }
        model.entities = entityNodes.map(\.0)
        for (entity, node) in entityNodes { try decodeEntityBody(entity, node) }
        try linkParents()
        try linkRelationships()

        var sawModelUserInfo = false
        for node in laterNodes {
            switch node.name {
            case "configuration": extras.configurations.append(try decodeConfiguration(node))
            case "fetchRequest": extras.fetchRequestTemplates.append(try decodeFetchRequest(node, in: "model"))
            case "userInfo":
                if sawModelUserInfo { warn(node, "a second <userInfo> on the model; its entries are merged") }
                sawModelUserInfo = true
                extras.userInfo.merge(decodeUserInfo(node)) { _, new in new }
            default: decodeLayout(node)
            }
        }
        for (name, node) in compositeDefinitions.sorted(by: { $0.key < $1.key }) where !usedComposites.contains(name) {
            warn(node, "composite definition '\(name)' is used by no attribute; it is not part of the model and is not written back")
        }
        var seen = Set<ModelFileWarning>()
        warnings = warnings.filter { seen.insert($0).inserted }
        return model
    }

    // MARK: - Entities

    private mutating func declareEntity(_ node: ModelFileXMLNode) throws(ModelFileError) -> EntityDescription {
        guard let name = node.attributes["name"], !name.isEmpty else {
            throw error(.missingAttribute, "<entity> has no name", node)
        }
        guard entityByName[name] == nil else {
            throw error(.duplicateName, "entity name '\(name)' is used more than once", node)
        }
        let entity = EntityDescription()
        entity.name = name
        entityByName[name] = entity
        return entity
    }

    private mutating func declareComposite(_ node: ModelFileXMLNode) throws(ModelFileError) {
        var attributes = XMLAttributes(node)
        guard let name = attributes.take("name"), !name.isEmpty else {
            throw error(.missingAttribute, "<composite> has no name", node)
        }
        guard compositeDefinitions[name] == nil else {
            throw error(.duplicateName, "composite definition '\(name)' is defined more than once", node)
        }
        compositeDefinitions[name] = node
        finish(attributes, element: "composite")
    }

    private mutating func decodeEntityBody(_ entity: EntityDescription, _ node: ModelFileXMLNode) throws(ModelFileError) {
        let entityName = entity.name ?? ""
        var attributes = XMLAttributes(node)
        _ = attributes.take("name")
        if let className = attributes.take("representedClassName"), !className.isEmpty {
            entity.managedObjectClassName = className
        }
        if let parent = attributes.take("parentEntity") {
            pendingParents.append((entity, parent, node))
        }
        entity.isAbstract = try bool(&attributes, "isAbstract") ?? false
        entity.renamingIdentifier = renamingIdentifier(&attributes)
        entity.versionHashModifier = attributes.take("versionHashModifier")
        if let generation = attributes.take("codeGenerationType") {
            extras.codeGenerationTypes[entityName] = generation
        }
        finish(attributes, element: "entity")

        var properties: [PropertyDescription] = []
        var compoundIndexNodes: [ModelFileXMLNode] = []
        for child in tree.children(of: node) {
            switch child.name {
            case "attribute":
                properties.append(try decodeAttribute(child, entity: entityName, keyPath: [], compositeStack: []))
            case "relationship":
                properties.append(try decodeRelationship(child, in: entity))
            case "fetchedProperty":
                extras.fetchedProperties[entityName, default: []].append(try decodeFetchedProperty(child))
            case "userInfo":
                entity.userInfo = merged(entity.userInfo, decodeUserInfo(child))
            case "uniquenessConstraints":
                entity.uniquenessConstraints += decodeUniquenessConstraints(child)
            case "compoundIndexes":
                compoundIndexNodes.append(child)
            case "fetchIndex":
                if let index = try decodeFetchIndex(child) { entity.indexes.append(index) }
            default:
                warnUnknownElement(child, in: "entity")
            }
        }
        // Compound indexes follow the fetch indexes, as the writer writes them.
        for child in compoundIndexNodes { decodeCompoundIndexes(child, into: entity) }
        entity.properties = properties
    }

    // MARK: - Links

    private mutating func linkParents() throws(ModelFileError) {
        for (entity, parentName, node) in pendingParents {
            guard let parent = entityByName[parentName] else {
                throw error(.unknownEntity, "parent entity '\(parentName)' is not in the model", node, attribute: "parentEntity")
            }
            guard !entity.reachesThroughSubentities(parent) else {
                throw error(.inconsistent, "making '\(parentName)' the parent of '\(entity.name ?? "")' creates an inheritance cycle",
                            node, attribute: "parentEntity")
            }
            parent.subentities.append(entity)
        }
        // The model layer walks superentity chains recursively (hashing, checking);
        // a chain no real model has is refused here rather than overflowing there.
        for (entity, _, node) in pendingParents where entity.ancestryFromRoot.count > Self.maximumInheritanceDepth {
            throw error(.tooDeep, "entity '\(entity.name ?? "")' is more than \(Self.maximumInheritanceDepth) levels below its root entity",
                        node, attribute: "parentEntity")
        }
    }

    /// Real models have a handful of inheritance levels.
    static let maximumInheritanceDepth = 64

    private mutating func linkRelationships() throws(ModelFileError) {
        for pending in pendingRelationships {
            guard let destination = entityByName[pending.destinationName] else {
                throw error(.unknownEntity, "relationship '\(pending.relationship.name)' leads to entity '\(pending.destinationName)', which is not in the model",
                            pending.node, attribute: "destinationEntity")
            }
            pending.relationship.destinationEntity = destination
        }
        for pending in pendingRelationships {
            guard let inverseName = pending.inverseName else {
                if pending.inverseEntityName != nil {
                    warn(pending.node, attribute: "inverseEntity", "inverseEntity without inverseName is ignored")
                }
                continue
            }
            let holderName = pending.inverseEntityName ?? pending.destinationName
            guard let holder = entityByName[holderName], let destination = pending.relationship.destinationEntity else {
                throw error(.unknownEntity, "inverse entity '\(holderName)' is not in the model", pending.node, attribute: "inverseEntity")
            }
            guard destination.isKindOf(entity: holder) else {
                throw error(.inconsistent, "inverseEntity '\(holderName)' is neither the destination '\(pending.destinationName)' nor one of its ancestors",
                            pending.node, attribute: "inverseEntity")
            }
            guard let inverse = holder.relationshipsByName[inverseName] else {
                throw error(.unknownInverse, "inverse '\(inverseName)' is not a relationship of '\(holderName)'",
                            pending.node, attribute: "inverseName")
            }
            pending.relationship.inverseRelationship = inverse
        }
    }

    // MARK: - Diagnostics

    func error(_ kind: ModelFileError.Kind, _ message: String, _ node: ModelFileXMLNode, attribute: String? = nil) -> ModelFileError {
        ModelFileError(kind, message, file: file, line: node.line, column: node.column,
                       path: attribute.map { "\(node.path)/@\($0)" } ?? node.path)
    }

    mutating func warn(_ node: ModelFileXMLNode, attribute: String? = nil, _ message: String) {
        warnings.append(ModelFileWarning(file: file, line: node.line, column: node.column,
                                         path: attribute.map { "\(node.path)/@\($0)" } ?? node.path, message: message))
    }

    mutating func warnUnknownElement(_ node: ModelFileXMLNode, in parent: String) {
        warn(node, "<\(node.name)> inside <\(parent)> is not part of the model format Faultline reads; it is ignored")
    }

    /// Reports every attribute not consumed (and not code-generation-only), and text content.
    mutating func finish(_ attributes: XMLAttributes, element: String) {
        for key in attributes.remaining.keys.sorted() where !ModelFileFormat.codeGenerationOnly.contains(key) {
            warn(attributes.node, attribute: key, "attribute '\(key)' of <\(element)> is not supported by Faultline; it is ignored")
        }
        if attributes.node.hasText {
            warn(attributes.node, "text inside <\(element)> has no meaning in a model file; it is ignored")
        }
    }

    // MARK: - Typed attribute values

    func bool(_ attributes: inout XMLAttributes, _ key: String) throws(ModelFileError) -> Bool? {
        guard let text = attributes.take(key) else { return nil }
        guard let value = ModelFileFormat.bool(text) else {
            throw error(.invalidValue, "'\(text)' is not YES or NO", attributes.node, attribute: key)
        }
        return value
    }

    func count(_ attributes: inout XMLAttributes, _ key: String) throws(ModelFileError) -> Int? {
        guard let text = attributes.take(key) else { return nil }
        guard ModelFileFormat.isIntegerLiteral(text), let value = Int(text), value >= 0 else {
            throw error(.invalidValue, "'\(text)' is not a count (a whole number, 0 or more)", attributes.node, attribute: key)
        }
        return value
    }

    /// `elementID` is how Xcode spells Core Data's renaming identifier.
    mutating func renamingIdentifier(_ attributes: inout XMLAttributes) -> String? {
        let elementID = attributes.take("elementID")
        let renaming = attributes.take("renamingIdentifier")
        if let elementID, let renaming, elementID != renaming {
            warn(attributes.node, attribute: "renamingIdentifier", "both elementID and renamingIdentifier are set; elementID '\(elementID)' is used")
        }
        return elementID ?? renaming
    }

    func merged(_ existing: [AnyHashable: Any]?, _ entries: [String: String]) -> [AnyHashable: Any]? {
        var result = existing ?? [:]
        for (key, value) in entries { result[key] = value }
        return result.isEmpty && existing == nil ? nil : result
    }
}

/// The XML attributes of one element, consumed one by one; what is left over is
/// reported by `ModelFileDecoder.finish`.
struct XMLAttributes {
    let node: ModelFileXMLNode
    private(set) var remaining: [String: String]

    init(_ node: ModelFileXMLNode) {
        self.node = node
        self.remaining = node.attributes
    }

    mutating func take(_ key: String) -> String? {
        remaining.removeValue(forKey: key)
    }
}
