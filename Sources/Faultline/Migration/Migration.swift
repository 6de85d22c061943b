// Migration: moving a user's store from the model that wrote it to the model the
// app now has, in Core Data's three flavours.
//
// Design.
//  - Every store records the version hash of the model that wrote it
//    (`StoreBootstrap.modelVersionHashKey`) and a description of the schema
//    Faultline wrote (`SchemaRecord`). The caller names the old models, as Core
//    Data's callers do (a list of `ModelVersion`s, or the stages of a
//    `StagedMigrationManager`); the store's hash picks the source model, and
//    before anything is changed that model's compiled schema must equal the
//    store's actual `sqlite_master` (modulo whitespace). A store is never
//    opened or migrated against a schema it does not have.
//  - Lightweight migration (`LightweightMigration`) infers a mapping from the
//    old and new checked models (`MappingInference`): entities and properties
//    match by the new element's renaming identifier, else by name; a column's
//    new value is an SQL expression over the old row (`TablePlan`). A table
//    whose old columns are a prefix of its new ones is changed in place with
//    `ALTER TABLE ADD COLUMN`; any other changed table goes through SQLite's
//    documented table-rebuild procedure (`TableRebuild`). Relationship data
//    whose storage changed (to-one → to-many, …) is carried through the old
//    (source, destination) key pairs (`RelationshipTransfer`); derived columns
//    whose derivation is new or changed are recomputed (`DerivedRecomputeStatements`).
//  - Atomicity: one lightweight migration is one IMMEDIATE transaction on one
//    connection, with foreign keys off around it as the rebuild procedure
//    says. The new schema is checked against a freshly compiled one before
//    COMMIT; any failure (a violated new uniqueness constraint, a missing
//    default, an unexpected schema) rolls everything back.
//  - Staged migration (`StagedMigrationManager`) runs a chain of lightweight
//    and custom steps; each step (custom handlers included) is its own
//    transaction that ends by writing the step's model hash, so a crash or a
//    throwing step leaves the store at the previous step's version, and the
//    next run finds that version in the chain and resumes there.
//  - Deferred clean-up (`DeferredCleanup`): with `deferCleanup`, dropping
//    removed columns and tables is recorded in Z_METADATA instead of done; the
//    store has the new model's hash and is usable at once (the leftover
//    columns are simply never read or written); `finishDeferredMigration()`
//    rebuilds those tables later and clears the record.
//
// Differences from Core Data are listed in `MappingInference.swift`.

import Foundation
import FaultlineSQLite

/// A model version a store may have been written with: the checked model plus
/// the property renaming identifiers (which the checked snapshot does not keep).
public struct ModelVersion: Sendable, Hashable {
    public let model: CheckedModel
    /// Per entity name: new property name (or composite key path) → the old
    /// name it was renamed from.
    public let propertyRenames: [String: [String: String]]
    /// A label for messages (e.g. "V2").
    public let label: String

    /// Checks `model` and records its renaming identifiers.
    public init(_ model: ManagedObjectModel, label: String? = nil) throws {
        let checked = try model.checked()
        var renames: [String: [String: String]] = [:]
        for entity in model.entities {
            guard let name = entity.name else { continue }
            for property in entity.properties {
                Self.collect(property, path: [], oldPath: [], into: &renames[name, default: [:]])
            }
        }
        self.model = checked
        self.propertyRenames = renames.filter { !$0.value.isEmpty }
        self.label = label ?? checked.versionChecksum
    }

    /// Records `property`'s rename under its new key path. `oldPath` is the
    /// key path its enclosing composite had in the old model: a leaf is
    /// migrated by its own key path, so a renamed composite must also rename
    /// every element under it (`size.w` comes from `dims.w`), or its leaves
    /// would match nothing and lose their values.
    private static func collect(_ property: PropertyDescription, path: [String], oldPath: [String],
                                into renames: inout [String: String]) {
        let keyPath = path + [property.name]
        let renamed = property.renamingIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? property.name
        let oldKeyPath = oldPath + [renamed]
        if oldKeyPath != keyPath {
            renames[keyPath.joined(separator: ".")] = oldKeyPath.joined(separator: ".")
        }
        if let composite = property as? CompositeAttributeDescription {
            for element in composite.elements { collect(element, path: keyPath, oldPath: oldKeyPath, into: &renames) }
        }
    }

    /// The name the property `name` of `entity` was renamed from (its
    /// renaming identifier); nil when it was not. The entity declaring the
    /// property carries the rename, and its sub-entities inherit it.
    func renamedFrom(_ name: String, in entity: CheckedEntity) -> String? {
        if let old = propertyRenames[entity.name]?[name] { return old }
        let declaring: Int? = switch entity.propertyByName[name] {
        case .attribute(let index)?: entity.attributes[index].declaringEntityIndex
        case .relationship(let index)?: entity.relationships[index].declaringEntityIndex
        case .composite(let index)?: entity.composites[index].declaringEntityIndex
        case nil: nil
        }
        return declaring.flatMap { propertyRenames[model.entities[$0].name]?[name] }
    }

    /// The model's version hash, base64 (as the store records it).
    public var hash: String { model.versionChecksum }
}

/// Whether and how a store written by another model is migrated when opened.
public struct MigrationOptions: Sendable {
    /// What the caller offers as the store's possible old models.
    public enum Path: Sendable {
        /// No migration: a store of another model fails to open (Core Data
        /// without `NSMigratePersistentStoresAutomaticallyOption`).
        case none
        /// Lightweight migration straight to the current model from whichever
        /// of these versions wrote the store.
        case lightweight([ModelVersion])
        /// The stages of a staged migration.
        case staged(StagedMigrationManager)
    }

    public var path: Path
    /// Defer dropping removed columns and tables (Core Data's
    /// `NSPersistentStoreDeferredLightweightMigrationOptionKey`).
    public var deferCleanup: Bool
    /// Called as the migration works (from the migrating thread).
    public var progress: (@Sendable (MigrationProgress) -> Void)?

    public init(path: Path, deferCleanup: Bool = false, progress: (@Sendable (MigrationProgress) -> Void)? = nil) {
        self.path = path
        self.deferCleanup = deferCleanup
        self.progress = progress
    }

    public static let none = MigrationOptions(path: .none)
}

/// Where a migration is, for a progress bar.
public struct MigrationProgress: Sendable, Equatable {
    /// The stage's label ("lightweight" for a plain lightweight migration).
    public let stage: String
    /// The entity (or table) being copied.
    public let entity: String
    /// Rows copied so far for that entity.
    public let rowsDone: Int
}

/// Why a migration did not happen. Whatever the case, the store is as it was
/// before the failing transaction began.
public enum MigrationError: Error, CustomStringConvertible {
    /// No given version wrote the store, or the chain does not reach the model.
    case noMigrationPath(storeHash: String, modelHash: String)
    /// The claimed old model does not describe the store's actual schema.
    case schemaMismatch(model: String, missing: [String], unexpected: [String])
    /// A change lightweight migration cannot infer.
    case unsupportedChange(entity: String, property: String, reason: String)
    /// A required attribute without default while existing rows hold NULL.
    case missingDefault(entity: String, attribute: String, nullRows: Int)
    /// A required to-one that existing rows would be left without (`RequiredRelationships`).
    case missingRelationship(entity: String, relationship: String, emptyRows: Int)
    /// A to-many whose members existing rows hold fewer than `minCount` or
    /// more than `maxCount` of (0: no maximum) (`RequiredRelationships`).
    case relationshipCountOutOfRange(entity: String, relationship: String, minCount: Int, maxCount: Int, rows: Int)
    /// A new uniqueness constraint that existing rows violate.
    case constraintViolation(entity: String, properties: [String], duplicates: [[SQLValue]])
    /// A stage of a staged migration failed; the store is at `storeVersion`.
    case stageFailed(stage: Int, label: String, storeVersion: String, underlying: any Error)
    /// A store Core Data wrote that Faultline does not migrate (CoreDataStoreMigration.swift).
    case coreDataStoreUnsupported(reason: String)
    /// A persistent-history change row of `entity` whose column mask (hex)
    /// does not fit the old model's properties, so it cannot be carried to
    /// the new model's slots (`HistoryMigration`).
    case unreadableHistory(entity: String, mask: String)

    public var description: String {
        switch self {
        case .noMigrationPath(let store, let model):
            return "no migration path from the store's model (version hash \(store)) to this model (version hash \(model))"
        case .schemaMismatch(let model, let missing, let unexpected):
            return "the store's schema is not the one model \(model) writes: missing \(missing), unexpected \(unexpected)"
        case .unsupportedChange(let entity, let property, let reason):
            return "\(entity).\(property): \(reason)"
        case .missingDefault(let entity, let attribute, let rows):
            return "\(entity).\(attribute) became required without a default value and \(rows) rows hold NULL"
        case .missingRelationship(let entity, let relationship, let rows):
            return "\(entity).\(relationship) is required and \(rows) rows would have no destination"
        case .relationshipCountOutOfRange(let entity, let relationship, let minimum, let maximum, let rows):
            let range = RequiredRelationships.allowedCount(minCount: minimum, maxCount: maximum)
            return "\(entity).\(relationship) must hold \(range) objects and \(rows) rows hold a number outside that"
        case .constraintViolation(let entity, let properties, let duplicates):
            let values = duplicates.map { "(" + $0.map(\.description).joined(separator: ", ") + ")" }
            return "existing \(entity) rows violate the new uniqueness constraint on "
                + "\(properties.joined(separator: ", ")): duplicated values \(values.joined(separator: ", "))"
        case .coreDataStoreUnsupported(let reason):
            return "this Core Data store is not migrated by Faultline: \(reason); the store is unchanged"
        case .unreadableHistory(let entity, let mask):
            return "a persistent-history change of \(entity) names properties by the mask \(mask), which does not fit "
                + "the old model's \(entity); its history cannot be carried to the new model, so the store is unchanged"
        case .stageFailed(let stage, let label, let version, let underlying):
            return "migration stage \(stage) (\(label)) failed, the store stays at version \(version): \(underlying)"
        }
    }
}

extension MigrationError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
