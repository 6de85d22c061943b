// Writing a `ManagedObjectModel` (and its `ModelFileExtras`) in Xcode's model
// format: a `contents` document, a `.xcdatamodel` folder, or a `.xcdatamodeld`
// bundle of versions with `.xccurrentversion`. What the format cannot express
// — a default of binary data, two minimum rules on one attribute, a user info
// value that is not a string, a relationship without destination — makes the
// writer throw `.notRepresentable` rather than write a file that reads back as a
// different model.
//
// Output is deterministic: entities and properties sorted by name (as Xcode
// writes them), attributes of each element in Xcode's order, user info and
// options sorted by key.

import Foundation
import FaultlineModel

/// Writes models as Xcode model files.
public struct ModelFileWriter: Sendable {
    public init() {}

    /// The `contents` XML document for `model`.
    ///
    /// - Throws: `.notRepresentable` naming the entity and property that cannot be written.
    /// - Complexity: linear in the size of the model.
    public func contents(of model: ManagedObjectModel, extras: ModelFileExtras = ModelFileExtras()) throws(ModelFileError) -> Data {
        Data(try contentsText(of: model, extras: extras).utf8)
    }

    /// The `contents` XML document for `model`, as text.
    public func contentsText(of model: ManagedObjectModel, extras: ModelFileExtras = ModelFileExtras()) throws(ModelFileError) -> String {
        var encoder = ModelFileEncoder(model: model, extras: extras)
        return try encoder.encode()
    }

    /// Writes `url` as a `.xcdatamodel` folder holding the `contents` file.
    public func writeVersion(_ model: ManagedObjectModel, extras: ModelFileExtras = ModelFileExtras(), to url: URL) throws(ModelFileError) {
        let data = try contents(of: model, extras: extras)
        try createDirectory(url)
        try write(data, to: url.appendingPathComponent("contents"))
    }

    /// Writes a `.xcdatamodeld` bundle: one `.xcdatamodel` per version and a
    /// `.xccurrentversion` naming the version marked current (the last one when none is).
    public func writeBundle(_ versions: [ModelBundleVersion], to url: URL) throws(ModelFileError) {
        guard let current = versions.first(where: \.isCurrent) ?? versions.last else {
            throw ModelFileError(.notRepresentable, "a model bundle needs at least one version", file: url.path)
        }
        var names = Set<String>()
        for version in versions {
            guard !version.name.isEmpty, !version.name.contains("/"), names.insert(version.name).inserted else {
                throw ModelFileError(.notRepresentable, "version name '\(version.name)' is empty, contains '/', or is used twice", file: url.path)
            }
        }
        try createDirectory(url)
        for version in versions {
            try writeVersion(version.model, extras: version.extras,
                             to: url.appendingPathComponent(version.name + ".xcdatamodel"))
        }
        let plist: [String: Any] = ["_XCCurrentVersionName": current.name + ".xcdatamodel"]
        guard let data = try? PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0) else {
            throw ModelFileError(.notRepresentable, "cannot encode .xccurrentversion", file: url.path)
        }
        try write(data, to: url.appendingPathComponent(".xccurrentversion"))
    }

    /// Writes every version of `bundle` as a `.xcdatamodeld` bundle.
    public func writeBundle(_ bundle: ModelBundle, to url: URL) throws(ModelFileError) {
        try writeBundle(bundle.versions, to: url)
    }

    private func createDirectory(_ url: URL) throws(ModelFileError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ModelFileError(.unreadable, "cannot create the folder", file: url.path)
        }
    }

    private func write(_ data: Data, to url: URL) throws(ModelFileError) {
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw ModelFileError(.unreadable, "cannot write the file", file: url.path)
        }
    }
}

/// Turns one model into a `contents` document (see ModelFileEncoder+Elements.swift
/// for entities and properties).
struct ModelFileEncoder {
    let model: ManagedObjectModel
    let extras: ModelFileExtras
    var xml = XMLTextWriter()
    /// Composite definitions by name, and their order of first use.
    var compositeBodies: [String: String] = [:]
    var compositeOrder: [String] = []

    init(model: ManagedObjectModel, extras: ModelFileExtras) {
        self.model = model
        self.extras = extras
    }

    static let rootAttributeOrder = [
        "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion",
        "sourceLanguage", "usedWithSwiftData", "usedWithCloudKit", "macOSVersion", "iOSVersion", "name",
    ]

    mutating func encode() throws(ModelFileError) -> String {
        // A model from code gets what Xcode writes for a new model; a model read
        // from a file keeps exactly the document attributes it had.
        let document = extras.documentAttributes.isEmpty
            ? ["type": "com.apple.IDECoreDataModeler.DataModel", "documentVersion": "1.0",
               "minimumToolsVersion": "Automatic", "sourceLanguage": "Swift"]
            : extras.documentAttributes
        var rootAttributes: XMLTextWriter.Attributes = Self.rootAttributeOrder.map { ($0, document[$0]) }
        rootAttributes.append(("userDefinedModelVersionIdentifier", extras.versionIdentifier ?? ""))
        try open("model", rootAttributes, at: "/model")

        let entityNames = Set(model.entities.compactMap(\.name))
        for name in extras.fetchedProperties.keys.sorted() where !entityNames.contains(name) {
            throw failure("fetched properties are listed for entity '\(name)', which is not in the model", at: "/model")
        }
        for entity in model.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
            try writeEntity(entity, entityNames: entityNames)
        }
        for name in compositeOrder {
            try open("composite", [("name", name)], at: "/model/composite[@name='\(name)']")
            xml.append(body: compositeBodies[name] ?? "")
            xml.close("composite")
        }
        for request in extras.fetchRequestTemplates {
            try fetchRequest(request, entityNames: entityNames, at: "/model/fetchRequest[@name='\(request.name)']")
        }
        for configuration in extras.configurations {
            let path = "/model/configuration[@name='\(configuration.name)']"
            try open("configuration", [("name", configuration.name),
                                       ("usedWithCloudKit", ModelFileFormat.yes(configuration.isUsedWithCloudKit))], at: path)
            for member in configuration.entityNames {
                guard entityNames.contains(member) else {
                    throw failure("configuration '\(configuration.name)' lists entity '\(member)', which is not in the model", at: path)
                }
                try open("memberEntity", [("name", member)], empty: true, at: path)
            }
            try userInfo(configuration.userInfo, at: path)
            xml.close("configuration")
        }
        try userInfo(extras.userInfo, at: "/model")
        if !extras.layout.isEmpty {
            try open("elements", [], at: "/model/elements")
            for element in extras.layout {
                let attributes = [("name", element.name)] + element.attributes.keys.sorted().map { ($0, element.attributes[$0]) }
                try open("element", attributes, empty: true, at: "/model/elements")
            }
            xml.close("elements")
        }
        xml.close("model")
        return xml.text
    }

    // MARK: - Shared pieces

    mutating func fetchRequest(_ request: FetchRequestTemplate, entityNames: Set<String>, at path: String) throws(ModelFileError) {
        guard entityNames.contains(request.entityName) else {
            throw failure("fetch request '\(request.name)' fetches entity '\(request.entityName)', which is not in the model", at: path)
        }
        let reserved: Set<String> = ["name", "entity", "predicateString"]
        let options = request.options.keys.sorted().filter { !reserved.contains($0) }.map { ($0, request.options[$0]) }
        try open("fetchRequest", [("name", request.name), ("entity", request.entityName),
                                  ("predicateString", request.predicateString)] + options, empty: true, at: path)
    }

    mutating func userInfo(_ entries: [String: String], at path: String) throws(ModelFileError) {
        guard !entries.isEmpty else { return }
        try open("userInfo", [], at: path + "/userInfo")
        for key in entries.keys.sorted() {
            try open("entry", [("key", key), ("value", entries[key])], empty: true, at: path + "/userInfo")
        }
        xml.close("userInfo")
    }

    /// A description's `userInfo` as strings; anything else cannot be written.
    func stringEntries(_ info: [AnyHashable: Any]?, at path: String) throws(ModelFileError) -> [String: String] {
        var entries: [String: String] = [:]
        for (key, value) in info ?? [:] {
            guard let key = key.base as? String, let value = value as? String else {
                throw failure("user info entry '\(key)' is not a string key with a string value; model files hold only strings", at: path)
            }
            entries[key] = value
        }
        return entries
    }

    mutating func open(_ name: String, _ attributes: XMLTextWriter.Attributes, empty: Bool = false,
                       at path: String) throws(ModelFileError) {
        do throws(XMLTextWriter.Unencodable) {
            try xml.open(name, attributes, empty: empty)
        } catch {
            throw failure("the value of '\(error.attribute)' holds a character XML cannot carry", at: path + "/@\(error.attribute)")
        }
    }

    func failure(_ message: String, at path: String) -> ModelFileError {
        ModelFileError(.notRepresentable, message, file: "contents", path: path)
    }
}
