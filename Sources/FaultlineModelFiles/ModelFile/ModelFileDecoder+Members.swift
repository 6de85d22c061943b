// Everything in a model file besides attributes: relationships (linked once all
// entities exist), uniqueness constraints, fetch indexes and the older compound
// indexes, fetched properties, user info, configurations, fetch request
// templates and the editor's layout.
//
// Relationship counts follow Xcode: `toMany="YES"` with no `maxCount` is
// unbounded (0); a to-one relationship has `maxCount="1"` (written or not). A
// `maxCount` other than 1 without `toMany="YES"` is contradictory and an error.
// `optional` absent means required, as for attributes.

import Foundation
import FaultlineModel

extension ModelFileDecoder {
    mutating func decodeRelationship(_ node: ModelFileXMLNode, in entity: EntityDescription) throws(ModelFileError) -> RelationshipDescription {
        var attributes = XMLAttributes(node)
        guard let name = attributes.take("name"), !name.isEmpty else {
            throw error(.missingAttribute, "<relationship> has no name", node)
        }
        guard let destination = attributes.take("destinationEntity"), !destination.isEmpty else {
            throw error(.missingAttribute, "relationship '\(name)' has no destinationEntity", node)
        }
        let relationship = RelationshipDescription()
        relationship.name = name
        relationship.isOptional = try bool(&attributes, "optional") ?? false
        relationship.isTransient = try bool(&attributes, "transient") ?? false
        relationship.isIndexed = try bool(&attributes, "indexed") ?? false
        relationship.isIndexedBySpotlight = try bool(&attributes, "spotlightIndexingEnabled") ?? false
        relationship.isOrdered = try bool(&attributes, "ordered") ?? false
        relationship.renamingIdentifier = renamingIdentifier(&attributes)
        relationship.versionHashModifier = attributes.take("versionHashModifier")
        if let ruleName = attributes.take("deletionRule") {
            guard let rule = ModelFileFormat.deleteRule(named: ruleName) else {
                let known = ModelFileFormat.deleteRuleNames.map { "'\($0.0)'" }.joined(separator: ", ")
                throw error(.invalidValue, "deletion rule '\(ruleName)' is not one of \(known)", node, attribute: "deletionRule")
            }
            relationship.deleteRule = rule
        }
        let isToMany = try bool(&attributes, "toMany") ?? false
        let maxCount = try count(&attributes, "maxCount")
        relationship.minCount = try count(&attributes, "minCount") ?? 0
        if isToMany {
            relationship.maxCount = maxCount ?? 0
            if maxCount == 1 {
                throw error(.inconsistent, "toMany=\"YES\" contradicts maxCount=\"1\"", node, attribute: "maxCount")
            }
        } else {
            if let maxCount, maxCount != 1 {
                throw error(.inconsistent, "maxCount=\"\(maxCount)\" makes relationship '\(name)' to-many, but toMany is not YES",
                            node, attribute: "maxCount")
            }
            relationship.maxCount = 1
        }
        pendingRelationships.append(PendingRelationship(
            relationship: relationship, entity: entity, node: node, destinationName: destination,
            inverseName: attributes.take("inverseName"), inverseEntityName: attributes.take("inverseEntity")))
        for child in tree.children(of: node) {
            if child.name == "userInfo" {
                relationship.userInfo = merged(relationship.userInfo, decodeUserInfo(child))
            } else {
                warnUnknownElement(child, in: "relationship")
            }
        }
        finish(attributes, element: "relationship")
        return relationship
    }

    // MARK: - Constraints and indexes

    /// `<uniquenessConstraints><uniquenessConstraint><constraint value="a"/>…`.
    /// `<constraintItem>` is accepted as a spelling of `<constraint>`.
    mutating func decodeUniquenessConstraints(_ node: ModelFileXMLNode) -> [[String]] {
        finish(XMLAttributes(node), element: "uniquenessConstraints")
        var constraints: [[String]] = []
        for group in tree.children(of: node) {
            guard group.name == "uniquenessConstraint" else {
                warnUnknownElement(group, in: "uniquenessConstraints")
                continue
            }
            finish(XMLAttributes(group), element: "uniquenessConstraint")
            let names = valueList(group, itemNames: ["constraint", "constraintItem"])
            if names.isEmpty {
                warn(group, "an empty uniqueness constraint constrains nothing; it is ignored")
            } else {
                constraints.append(names)
            }
        }
        return constraints
    }

    /// `<compoundIndexes><compoundIndex><index value="a"/>…`, the form before fetch
    /// indexes: Core Data's `compoundIndexes`, kept as such because the store
    /// names their indexes differently from fetch indexes.
    mutating func decodeCompoundIndexes(_ node: ModelFileXMLNode, into entity: EntityDescription) {
        finish(XMLAttributes(node), element: "compoundIndexes")
        for group in tree.children(of: node) {
            guard group.name == "compoundIndex" else {
                warnUnknownElement(group, in: "compoundIndexes")
                continue
            }
            finish(XMLAttributes(group), element: "compoundIndex")
            let names = valueList(group, itemNames: ["index"])
            guard !names.isEmpty else {
                warn(group, "an empty compound index indexes nothing; it is ignored")
                continue
            }
            entity.compoundIndexes.append(names)
        }
    }

    private mutating func valueList(_ group: ModelFileXMLNode, itemNames: Set<String>) -> [String] {
        var names: [String] = []
        for item in tree.children(of: group) {
            guard itemNames.contains(item.name) else {
                warnUnknownElement(item, in: group.name)
                continue
            }
            var attributes = XMLAttributes(item)
            if let value = attributes.take("value"), !value.isEmpty {
                names.append(value)
            } else {
                warn(item, "<\(item.name)> without a value is ignored")
            }
            finish(attributes, element: item.name)
        }
        return names
    }

    /// `<fetchIndex name><fetchIndexElement property type order/>…`. Expression
    /// elements are not supported: they are reported and left out.
    mutating func decodeFetchIndex(_ node: ModelFileXMLNode) throws(ModelFileError) -> FetchIndexDescription? {
        var attributes = XMLAttributes(node)
        guard let name = attributes.take("name"), !name.isEmpty else {
            throw error(.missingAttribute, "<fetchIndex> has no name", node)
        }
        finish(attributes, element: "fetchIndex")
        var elements: [FetchIndexElementDescription] = []
        for child in tree.children(of: node) {
            guard child.name == "fetchIndexElement" else {
                warnUnknownElement(child, in: "fetchIndex")
                continue
            }
            var elementAttributes = XMLAttributes(child)
            guard let property = elementAttributes.take("property"), !property.isEmpty else {
                warn(child, "fetch index elements over expressions are not supported; this element is left out of index '\(name)'")
                continue
            }
            var collation = FetchIndexElementType.binary
            if let type = elementAttributes.take("type") {
                switch type.lowercased() {
                case "binary": collation = .binary
                case "rtree", "r-tree": collation = .rTree
                default: throw error(.invalidValue, "fetch index element type '\(type)' is not Binary or RTree", child, attribute: "type")
                }
            }
            var ascending = true
            if let order = elementAttributes.take("order") {
                switch order.lowercased() {
                case "ascending": ascending = true
                case "descending": ascending = false
                default: throw error(.invalidValue, "order '\(order)' is not ascending or descending", child, attribute: "order")
                }
            }
            finish(elementAttributes, element: "fetchIndexElement")
            elements.append(FetchIndexElementDescription(propertyName: property, isAscending: ascending, collationType: collation))
        }
        guard !elements.isEmpty else {
            warn(node, "fetch index '\(name)' has no property elements; it is left out")
            return nil
        }
        return FetchIndexDescription(name: name, elements: elements)
    }

    // MARK: - Fetched properties and fetch requests

    mutating func decodeFetchedProperty(_ node: ModelFileXMLNode) throws(ModelFileError) -> FetchedPropertyTemplate {
        var attributes = XMLAttributes(node)
        guard let name = attributes.take("name"), !name.isEmpty else {
            throw error(.missingAttribute, "<fetchedProperty> has no name", node)
        }
        let isOptional = try bool(&attributes, "optional") ?? false
        finish(attributes, element: "fetchedProperty")
        var request: FetchRequestTemplate?
        var userInfo: [String: String] = [:]
        for child in tree.children(of: node) {
            switch child.name {
            case "fetchRequest" where request == nil: request = try decodeFetchRequest(child, in: "fetchedProperty")
            case "userInfo": userInfo.merge(decodeUserInfo(child)) { _, new in new }
            default: warnUnknownElement(child, in: "fetchedProperty")
            }
        }
        guard let request else {
            throw error(.missingAttribute, "fetched property '\(name)' has no <fetchRequest>", node)
        }
        warn(node, "fetched property '\(name)' is kept in the model file extras but Faultline does not evaluate fetched properties")
        return FetchedPropertyTemplate(name: name, isOptional: isOptional, fetchRequest: request, userInfo: userInfo)
    }

    /// `<fetchRequest name entity predicateString …/>`; other attributes are kept
    /// verbatim in `options`. The entity must exist.
    mutating func decodeFetchRequest(_ node: ModelFileXMLNode, in parent: String) throws(ModelFileError) -> FetchRequestTemplate {
        var attributes = XMLAttributes(node)
        guard let name = attributes.take("name"), !name.isEmpty else {
            throw error(.missingAttribute, "<fetchRequest> has no name", node)
        }
        guard let entityName = attributes.take("entity"), !entityName.isEmpty else {
            throw error(.missingAttribute, "fetch request '\(name)' has no entity", node)
        }
        guard entityByName[entityName] != nil else {
            throw error(.unknownEntity, "fetch request '\(name)' fetches entity '\(entityName)', which is not in the model", node, attribute: "entity")
        }
        let predicate = attributes.take("predicateString")
        let options = attributes.remaining
        for child in tree.children(of: node) { warnUnknownElement(child, in: "fetchRequest") }
        if node.hasText { warn(node, "text inside <fetchRequest> has no meaning in a model file; it is ignored") }
        return FetchRequestTemplate(name: name, entityName: entityName, predicateString: predicate, options: options)
    }

    // MARK: - Configurations, user info, layout

    mutating func decodeConfiguration(_ node: ModelFileXMLNode) throws(ModelFileError) -> ModelConfiguration {
        var attributes = XMLAttributes(node)
        guard let name = attributes.take("name"), !name.isEmpty else {
            throw error(.missingAttribute, "<configuration> has no name", node)
        }
        let cloudKit = try bool(&attributes, "usedWithCloudKit") ?? false
        finish(attributes, element: "configuration")
        var configuration = ModelConfiguration(name: name, entityNames: [], isUsedWithCloudKit: cloudKit)
        for child in tree.children(of: node) {
            switch child.name {
            case "memberEntity":
                var memberAttributes = XMLAttributes(child)
                guard let member = memberAttributes.take("name"), !member.isEmpty else {
                    throw error(.missingAttribute, "<memberEntity> has no name", child)
                }
                guard entityByName[member] != nil else {
                    throw error(.unknownEntity, "configuration '\(name)' lists entity '\(member)', which is not in the model", child)
                }
                finish(memberAttributes, element: "memberEntity")
                configuration.entityNames.append(member)
            case "userInfo":
                configuration.userInfo.merge(decodeUserInfo(child)) { _, new in new }
            default:
                warnUnknownElement(child, in: "configuration")
            }
        }
        return configuration
    }

    /// `<userInfo><entry key value/>…`; a later entry for the same key wins (with a warning).
    mutating func decodeUserInfo(_ node: ModelFileXMLNode) -> [String: String] {
        finish(XMLAttributes(node), element: "userInfo")
        var entries: [String: String] = [:]
        for child in tree.children(of: node) {
            guard child.name == "entry" else {
                warnUnknownElement(child, in: "userInfo")
                continue
            }
            var attributes = XMLAttributes(child)
            guard let key = attributes.take("key") else {
                warn(child, "a user info entry without a key is ignored")
                continue
            }
            if entries[key] != nil { warn(child, "user info key '\(key)' appears twice; the last value is kept") }
            entries[key] = attributes.take("value") ?? ""
            finish(attributes, element: "entry")
        }
        return entries
    }

    /// `<elements><element name …/>…`: the editor's diagram; kept for writing back.
    mutating func decodeLayout(_ node: ModelFileXMLNode) {
        finish(XMLAttributes(node), element: "elements")
        for child in tree.children(of: node) {
            guard child.name == "element", let name = child.attributes["name"] else {
                warnUnknownElement(child, in: "elements")
                continue
            }
            var attributes = child.attributes
            attributes["name"] = nil
            extras.layout.append(ModelFileExtras.LayoutElement(name: name, attributes: attributes))
        }
    }
}
