// What a model file holds beyond what `ManagedObjectModel` describes:
// configurations, fetch request templates, fetched properties, the model's own
// user info, the version identifier, and the editor details that only matter for
// writing the file back (composite definition names, compound-index spellings,
// code generation settings, diagram layout). Carried beside the model in
// `ModelBundleVersion`, and given back to `ModelFileWriter`.
//
// Fetch request templates stay as the file wrote them (a predicate string and
// verbatim options), so they write back unchanged: this module sits below the
// predicate language. The core turns them into runnable requests
// (`ModelBundleVersion.fetchRequestTemplate(forName:)`).

/// Model-level information from a model file that the model classes have no place for.
public struct ModelFileExtras: Hashable, Sendable {
    /// `userDefinedModelVersionIdentifier` (Core Data's `versionIdentifiers`); nil when empty.
    public var versionIdentifier: String?
    /// The model's own `<userInfo>` entries (entity and property user info lives on
    /// the descriptions' `userInfo`).
    public var userInfo: [String: String] = [:]
    /// `<configuration>`s, in file order.
    public var configurations: [ModelConfiguration] = []
    /// Model-level `<fetchRequest>` templates, in file order.
    public var fetchRequestTemplates: [FetchRequestTemplate] = []
    /// `<fetchedProperty>`s by entity name, in file order. Faultline keeps them
    /// (and warns) but does not evaluate them.
    public var fetchedProperties: [String: [FetchedPropertyTemplate]] = [:]
    /// Root attributes describing the tool and document (`lastSavedToolsVersion`,
    /// `sourceLanguage`, …), written back unchanged.
    public var documentAttributes: [String: String] = [:]
    /// `codeGenerationType` per entity name (Xcode code generation only).
    public var codeGenerationTypes: [String: String] = [:]
    /// The `<composite name>` each composite attribute used, by `Entity.keyPath`.
    public var compositeTypeNames: [String: String] = [:]
    /// The diagram's `<elements>/<element>` entries, kept for writing back.
    public var layout: [LayoutElement] = []

    public init() {}

    /// The configuration called `name`.
    public func configuration(named name: String) -> ModelConfiguration? {
        configurations.first { $0.name == name }
    }

    /// The fetch request template called `name`.
    public func fetchRequestTemplate(named name: String) -> FetchRequestTemplate? {
        fetchRequestTemplates.first { $0.name == name }
    }

    /// One diagram box of Xcode's model editor; attributes kept verbatim.
    public struct LayoutElement: Hashable, Sendable {
        public var name: String
        public var attributes: [String: String]

        public init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }
    }
}

/// A named subset of a model's entities (Core Data's configurations), used to put
/// entities in different stores.
public struct ModelConfiguration: Hashable, Sendable {
    public var name: String
    /// Member entity names, in file order.
    public var entityNames: [String]
    /// `usedWithCloudKit="YES"`: kept; Faultline has no CloudKit.
    public var isUsedWithCloudKit: Bool
    public var userInfo: [String: String]

    public init(name: String, entityNames: [String], isUsedWithCloudKit: Bool = false, userInfo: [String: String] = [:]) {
        self.name = name
        self.entityNames = entityNames
        self.isUsedWithCloudKit = isUsedWithCloudKit
        self.userInfo = userInfo
    }
}

/// A stored fetch request (Core Data's fetch request templates), and the request of
/// a fetched property.
public struct FetchRequestTemplate: Hashable, Sendable {
    public var name: String
    /// The fetched entity's name.
    public var entityName: String
    /// The predicate in Core Data's predicate syntax, as written in the file.
    public var predicateString: String?
    /// Any other attributes of the `<fetchRequest>` (`fetchLimit`, `resultType`, …),
    /// kept verbatim and written back.
    public var options: [String: String]

    public init(name: String, entityName: String, predicateString: String? = nil, options: [String: String] = [:]) {
        self.name = name
        self.entityName = entityName
        self.predicateString = predicateString
        self.options = options
    }

    /// A flag among `options` as the model file spells it (`YES`/`NO`, or the
    /// `true`/`false` and `1`/`0` of hand-written files); nil when it reads as
    /// neither.
    public static func flag(_ text: String) -> Bool? { ModelFileFormat.bool(text) }
}

/// A fetched property: a named, stored fetch request evaluated relative to an object.
public struct FetchedPropertyTemplate: Hashable, Sendable {
    public var name: String
    public var isOptional: Bool
    public var fetchRequest: FetchRequestTemplate
    public var userInfo: [String: String]

    public init(name: String, isOptional: Bool = true, fetchRequest: FetchRequestTemplate, userInfo: [String: String] = [:]) {
        self.name = name
        self.isOptional = isOptional
        self.fetchRequest = fetchRequest
        self.userInfo = userInfo
    }
}
