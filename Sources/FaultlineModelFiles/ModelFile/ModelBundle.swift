// The result of reading a model file: every version of a `.xcdatamodeld` bundle
// (one for a bare `.xcdatamodel` or `contents` file), each a `ManagedObjectModel`
// with the extras the model classes have no place for, the warnings its file
// produced, and — when a compiled `.momd` was found — the entity version hashes
// Core Data computed for it.
//
// Models come back editable (not checked): call `model.checked()` to validate
// and freeze. Transformable attributes need their transformers registered in
// `ValueTransformerRegistry` first, as Core Data needs them registered with
// `ValueTransformer`.

import Foundation
import FaultlineModel

/// One version of a model: a `ManagedObjectModel` plus what the file added.
public struct ModelBundleVersion {
    /// The version's name: the `.xcdatamodel` folder name without its extension
    /// (`"Model 6"`), or the name given for a lone `contents` file.
    public let name: String
    /// Whether `.xccurrentversion` names this version (always true for a single file).
    public internal(set) var isCurrent: Bool
    /// The model, editable, with entity and property `userInfo` set from the file.
    public let model: ManagedObjectModel
    /// Configurations, fetch request templates, fetched properties, model user info…
    public var extras: ModelFileExtras
    /// What the file holds that Faultline does not interpret, with paths.
    public internal(set) var warnings: [ModelFileWarning]
    /// Entity version hashes Core Data computed (`NSManagedObjectModel_VersionHashes`
    /// in the compiled `.momd`, or the store's metadata for its model cache), by
    /// entity name; nil without them. Setting them adopts them into `model`.
    public internal(set) var coreDataEntityVersionHashes: [String: Data]? {
        didSet { coreDataEntityVersionHashes.map(model.adoptCoreDataEntityVersionHashes) }
    }
    /// `NSManagedObjectModel_VersionChecksums` for the version, when present.
    public internal(set) var coreDataVersionChecksum: String?
    /// The `contents` file the version was read from.
    public let sourceURL: URL?

    public init(name: String, isCurrent: Bool = true, model: ManagedObjectModel, extras: ModelFileExtras = ModelFileExtras(),
                warnings: [ModelFileWarning] = [], coreDataEntityVersionHashes: [String: Data]? = nil,
                coreDataVersionChecksum: String? = nil, sourceURL: URL? = nil) {
        self.name = name
        self.isCurrent = isCurrent
        self.model = model
        self.extras = extras
        // The file's identifier is the model's (Core Data's `versionIdentifiers`),
        // which stores created or migrated with it record: the empty one for a
        // file without (Core Data records [""] for it, [] for a model built in
        // code). A compiled model's decoder sets them all already, and a frozen
        // model keeps its own.
        if model.isEditable, model.versionIdentifiers.isEmpty {
            model.versionIdentifiers = [extras.versionIdentifier ?? ""]
        }
        self.warnings = warnings
        self.coreDataEntityVersionHashes = coreDataEntityVersionHashes
        coreDataEntityVersionHashes.map(model.adoptCoreDataEntityVersionHashes)
        self.coreDataVersionChecksum = coreDataVersionChecksum
        self.sourceURL = sourceURL
    }

    /// The user info of the model (`entity` nil), an entity, or one of its
    /// properties (`property` a name or a composite key path), as strings.
    public func userInfo(entity: String? = nil, property: String? = nil) -> [String: String] {
        guard let entity else { return extras.userInfo }
        guard let description = model.entitiesByName[entity] else { return [:] }
        guard let property else { return Self.strings(description.userInfo) }
        return Self.strings(description.property(forKeyPath: property)?.userInfo)
    }

    static func strings(_ info: [AnyHashable: Any]?) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in info ?? [:] {
            guard let key = key.base as? String else { continue }
            result[key] = value as? String ?? String(describing: value)
        }
        return result
    }
}

/// Every version read from a model file or bundle.
public struct ModelBundle {
    /// The bundle's name (`"Model"` for `Model.xcdatamodeld`).
    public let name: String
    /// Versions sorted by name, numerically (`Model`, `Model 2`, …, `Model 10`).
    public internal(set) var versions: [ModelBundleVersion]
    /// Problems with the bundle itself (the compiled model disagreeing, …).
    public internal(set) var bundleWarnings: [ModelFileWarning]

    public init(name: String, versions: [ModelBundleVersion], bundleWarnings: [ModelFileWarning] = []) {
        self.name = name
        self.versions = versions
        self.bundleWarnings = bundleWarnings
    }

    /// The version `.xccurrentversion` names.
    public var current: ModelBundleVersion? {
        versions.first { $0.isCurrent }
    }

    /// The version called `name`.
    public func version(named name: String) -> ModelBundleVersion? {
        versions.first { $0.name == name }
    }

    /// Every warning: the bundle's, then each version's.
    public var warnings: [ModelFileWarning] {
        bundleWarnings + versions.flatMap(\.warnings)
    }
}
