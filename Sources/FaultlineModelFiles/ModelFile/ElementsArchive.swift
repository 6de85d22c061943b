// Xcode 3's model format: a `.xcdatamodel` folder holding `elements`, an
// NSKeyedArchiver archive of Xcode's own modelling classes, instead of the XML
// `contents` that Xcode 4 and later write. Apps and stores from before 2011
// (RestKit's seed database, Apple's CoreDataBooks) come with it.
//
// The archive is a UML model: `XDPMModel` → `_xd_rootPackage` (`XDModelPackage`)
// → classes by name (`XDPMEntity`) → owned attributes by name (`XDPMAttribute`,
// `XDPMRelationship`). Core Data's settings are not fields of those objects but
// "stereotype" properties (`XDUMLStereotypeImp` → `XDUMLPropertyImp`, the value
// in `_default`), named `XD_PSK_…` (entity), `XD_PPSK_…` (any property),
// `XD_PAttK_…` (attribute) and `XD_PRK_…` (relationship). A sub-entity names its
// parent through a UML generalization (`_general`).
//
// The archive is translated into the element tree of the XML format and decoded
// by the same `ModelFileDecoder`, so one setting means one thing in both formats.
// Not read, and said so in a warning: fetch request templates, fetched
// properties, configurations and any stereotype key not listed below. User-info
// values that are not strings (Sync Services' policies, present on every
// property Xcode 3 wrote) have no place in the XML format and are left out.

import Foundation
import FaultlineModel

enum ElementsArchive {
    /// The XML attribute each stereotype key becomes.
    private static let propertyKeys: [String: String] = [
        "XD_PPSK_isOptional": "optional", "XD_PPSK_isTransient": "transient", "XD_PPSK_isIndexed": "indexed",
        "XD_PPSK_versionHashModifier": "versionHashModifier", "XD_PPSK_elementID": "elementID",
        "XD_PAttK_defaultValueAsString": "defaultValueString", "XD_PAttK_minValueString": "minValueString",
        "XD_PAttK_maxValueString": "maxValueString", "XD_PAttK_regularExpressionString": "regularExpressionString",
        "XD_PAttK_valueTransformerName": "valueTransformerName",
        "XD_PAttK_allowsExternalBinaryDataStorage": "allowsExternalBinaryDataStorage",
        "XD_PRK_minCount": "minCount", "XD_PRK_maxCount": "maxCount", "XD_PRK_isToMany": "toMany", "XD_PRK_ordered": "ordered",
        "XD_PSK_entityClassName": "representedClassName", "XD_PSK_isAbstract": "isAbstract",
        "XD_PSK_versionHashModifier": "versionHashModifier", "XD_PSK_elementID": "elementID",
        "XD_PPSK_isSpotlightIndexed": "spotlightIndexingEnabled", "XD_PPSK_isStoredInTruthFile": "storedInTruthFile",
    ]
    /// XML attributes that are booleans, written `YES` when set.
    private static let booleanAttributes: Set<String> = [
        "optional", "transient", "indexed", "toMany", "ordered", "isAbstract", "allowsExternalBinaryDataStorage",
        "spotlightIndexingEnabled", "storedInTruthFile",
    ]
    /// Keys read in their own way (types, rules, references, user info), or
    /// that describe Xcode's editor and sync settings rather than the model.
    private static let otherKeys: Set<String> = [
        "XD_PAttK_attributeType", "XD_PRK_deleteRule", "XD_PRK_destination", "XD_PRK_inverseRelationship",
        "XD_PPSK_userInfo", "XD_PSK_userInfo", "XD_PSK_classMapping", "XD_PSK_fetchRequestsArray",
    ]

    /// `elements`' model as the XML format's element tree, with the warnings
    /// of what the tree leaves out.
    ///
    /// - Throws: `.unreadable` when the file is not a readable keyed archive
    ///   of an Xcode 3 model, naming what is missing.
    static func tree(from data: Data, file: String) throws(ModelFileError) -> (tree: ModelFileXMLTree, warnings: [ModelFileWarning]) {
        var translator = Translator(file: file)
        do {
            let archive = try KeyedArchive(BinaryPropertyList.parse(data))
            try translator.translate(archive)
        } catch let failure as KeyedArchive.Failure {
            throw ModelFileError(.unreadable, "the Xcode 3 model archive cannot be read: \(failure.message)", file: file)
        } catch let failure as BinaryPropertyList.Failure {
            throw ModelFileError(.unreadable, "the Xcode 3 model archive is not a binary property list: \(failure)", file: file)
        } catch let error as ModelFileError {
            throw error
        } catch {
            throw ModelFileError(.unreadable, "the Xcode 3 model archive cannot be read: \(error)", file: file)
        }
        return (translator.assembler.tree, translator.warnings)
    }

    private struct Translator {
        let file: String
        var assembler = ModelFileXMLTree.Assembler()
        var warnings: [ModelFileWarning] = []

        init(file: String) { self.file = file }

        mutating func translate(_ archive: KeyedArchive) throws {
            guard let model = try archive.object(archive.root), model.className == "XDPMModel" else {
                throw KeyedArchive.Failure("the root object is not an XDPMModel")
            }
            guard let package = try archive.object(model.fields["_xd_rootPackage"]) else {
                throw KeyedArchive.Failure("the model has no root package")
            }
            let root = assembler.add("model", [:], under: nil)
            if let configurations = try archive.dictionary(model.fields["_configurationsByName"]), !configurations.isEmpty {
                warn("/model", "configurations (\(configurations.map(\.key).sorted().joined(separator: ", "))) are not read from Xcode 3 models")
            }
            let entities = try archive.dictionary(package.fields["XDBucketForClassesstorage"]) ?? []
            for (name, reference) in entities.sorted(by: { $0.key < $1.key }) {
                guard let entity = try archive.object(reference), entity.className == "XDPMEntity" else {
                    warn("/model", "class '\(name)' is not an XDPMEntity; it is ignored")
                    continue
                }
                try translateEntity(entity, named: name, in: archive, under: root)
            }
        }

        private mutating func translateEntity(_ entity: KeyedArchive.Object, named name: String,
                                              in archive: KeyedArchive, under root: Int) throws {
            let settings = try stereotypes(of: entity, in: archive)
            var attributes = try xmlAttributes(settings, in: archive)
            attributes["name"] = name
            if let parent = try parentName(of: entity, in: archive) { attributes["parentEntity"] = parent }
            let node = assembler.add("entity", attributes, under: root)
            let path = assembler.nodes[node].path
            if let templates = try archive.collection(settings["XD_PSK_fetchRequestsArray"]), !templates.isEmpty {
                warn(path, "\(templates.count) fetch request template(s) are not read from Xcode 3 models")
            }
            unknownKeys(settings, in: archive, at: path)
            let members = try archive.dictionary(entity.fields["XDBucketForOwnedAttributesstorage"]) ?? []
            for (memberName, reference) in members.sorted(by: { $0.key < $1.key }) {
                guard let member = try archive.object(reference) else { continue }
                let element: String
                switch member.className {
                case "XDPMAttribute": element = "attribute"
                case "XDPMRelationship": element = "relationship"
                default:
                    warn(path, "'\(memberName)' is an \(member.className), which is not read from Xcode 3 models")
                    continue
                }
                let memberSettings = try stereotypes(of: member, in: archive)
                var memberAttributes = try xmlAttributes(memberSettings, in: archive)
                memberAttributes["name"] = memberName
                if element == "attribute" {
                    guard let number = try archive.integer(memberSettings["XD_PAttK_attributeType"]),
                          let type = UInt(exactly: number).flatMap(AttributeType.init(rawValue:)) else {
                        throw KeyedArchive.Failure("attribute '\(name).\(memberName)' has no known XD_PAttK_attributeType")
                    }
                    memberAttributes["attributeType"] = ModelFileFormat.name(of: type)
                } else {
                    try relationshipAttributes(memberSettings, in: archive, into: &memberAttributes)
                }
                let memberNode = assembler.add(element, memberAttributes, under: node)
                let memberPath = assembler.nodes[memberNode].path
                unknownKeys(memberSettings, in: archive, at: memberPath)
                try userInfo(memberSettings["XD_PPSK_userInfo"], in: archive, under: memberNode)
            }
            try userInfo(settings["XD_PSK_userInfo"], in: archive, under: node)
        }

        /// Destination, inverse and delete rule, from references and numbers.
        private func relationshipAttributes(_ settings: [String: PropertyListObject], in archive: KeyedArchive,
                                            into attributes: inout [String: String]) throws {
            if let destination = try archive.object(settings["XD_PRK_destination"]) {
                attributes["destinationEntity"] = try archive.string(destination.fields["_name"])
            }
            if let inverse = try archive.object(settings["XD_PRK_inverseRelationship"]) {
                attributes["inverseName"] = try archive.string(inverse.fields["_name"])
                if let owner = try archive.object(inverse.fields["_owner"]) {
                    attributes["inverseEntity"] = try archive.string(owner.fields["_name"])
                }
            }
            if let rule = try archive.integer(settings["XD_PRK_deleteRule"]) {
                let names = [0: "No Action", 1: "Nullify", 2: "Cascade", 3: "Deny"]
                guard let name = names[Int(rule)] else { throw KeyedArchive.Failure("delete rule \(rule) is not one of Core Data's") }
                attributes["deletionRule"] = name
            }
            // An unbounded to-many's maxCount is 0 in the archive and absent in XML.
            if attributes["toMany"] != nil, attributes["maxCount"] == "0" { attributes["maxCount"] = nil }
        }

        /// Stereotype property name → its `_default` value, over all of an element's stereotypes.
        private func stereotypes(of object: KeyedArchive.Object, in archive: KeyedArchive) throws -> [String: PropertyListObject] {
            var settings: [String: PropertyListObject] = [:]
            for (_, reference) in try archive.dictionary(object.fields["XDBucketForStereotypesstorage"]) ?? [] {
                guard let stereotype = try archive.object(reference) else { continue }
                for (name, property) in try archive.dictionary(stereotype.fields["XDBucketForOwnedAttributesstorage"]) ?? [] {
                    guard let property = try archive.object(property), let value = property.fields["_default"] else { continue }
                    settings[name] = value
                }
            }
            return settings
        }

        /// The XML attributes of the settings listed in `propertyKeys`.
        private func xmlAttributes(_ settings: [String: PropertyListObject], in archive: KeyedArchive) throws -> [String: String] {
            var attributes: [String: String] = [:]
            for (key, value) in settings {
                guard let xmlName = ElementsArchive.propertyKeys[key] else { continue }
                // An NSNumber is archived as a boolean or an integer, whichever
                // the archiver met first for its value: read by what the key means.
                if ElementsArchive.booleanAttributes.contains(xmlName) {
                    if try archive.bool(value) == true { attributes[xmlName] = "YES" }
                    continue
                }
                switch try archive.resolve(value) {
                case .null: continue
                case .bool(let flag): attributes[xmlName] = flag ? "1" : "0"
                case .integer(let number): attributes[xmlName] = "\(number)"
                case .real(let number): attributes[xmlName] = "\(number)"
                default:
                    if let text = try archive.string(value) { attributes[xmlName] = text }
                }
            }
            return attributes
        }

        /// The parent entity's name, from the entity's UML generalization.
        private func parentName(of entity: KeyedArchive.Object, in archive: KeyedArchive) throws -> String? {
            for reference in try archive.collection(entity.fields["XDBucketForGeneralizationsstorage"]) ?? [] {
                guard let generalization = try archive.object(reference),
                      let parent = try archive.object(generalization.fields["_general"]) else { continue }
                return try archive.string(parent.fields["_name"])
            }
            return nil
        }

        /// `<userInfo><entry key= value=/>`, for the entries whose values are strings.
        private mutating func userInfo(_ reference: PropertyListObject?, in archive: KeyedArchive, under parent: Int) throws {
            let entries = try (archive.dictionary(reference) ?? []).compactMap { entry -> (String, String)? in
                guard case .string(let text)? = try? archive.scalar(entry.value) else { return nil }
                return (entry.key, text)
            }
            guard !entries.isEmpty else { return }
            let node = assembler.add("userInfo", [:], under: parent)
            for (key, value) in entries.sorted(by: { $0.0 < $1.0 }) {
                _ = assembler.add("entry", ["key": key, "value": value], under: node)
            }
        }

        /// Warns of each setting not read that holds something (Xcode 3 archives
        /// every setting, most of them null).
        private mutating func unknownKeys(_ settings: [String: PropertyListObject], in archive: KeyedArchive, at path: String) {
            for key in settings.keys.sorted()
            where ElementsArchive.propertyKeys[key] == nil && !ElementsArchive.otherKeys.contains(key) {
                let value = try? archive.resolve(settings[key] ?? .null)
                if value == nil || value == .null { continue }
                if let members = try? archive.collection(settings[key]), members.isEmpty { continue }
                warn(path, "Xcode 3 setting '\(key)' is not read by Faultline; it is ignored")
            }
        }

        private mutating func warn(_ path: String, _ message: String) {
            warnings.append(ModelFileWarning(file: file, line: 0, column: 0, path: path, message: message))
        }
    }
}
