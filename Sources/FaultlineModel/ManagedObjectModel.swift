// MARK: - The model layer: design note
//
// What this is. Core Data's model, in Swift, without the NS prefix: mutable
// description classes (`ManagedObjectModel`, `EntityDescription`,
// `AttributeDescription`, `DerivedAttributeDescription`,
// `CompositeAttributeDescription`, `RelationshipDescription`,
// `FetchIndexDescription`) that Core Data code ports to by dropping the prefix, a
// declarative builder that produces the same classes, and `checked()`, which
// validates a model and returns `CheckedModel`: the immutable, `Sendable`,
// index-resolved snapshot that every later layer (schema compiler, store,
// contexts) consumes instead of the classes.
//
// Invariants.
//  1. Ownership is a tree: model → entities → properties / indexes, entity →
//     subentities, composite → elements. Every other link (property.entity,
//     entity.superentity, entity.managedObjectModel, relationship.destinationEntity,
//     relationship.inverseRelationship) is weak. Setters refuse entries that would
//     close a strong cycle (an entity inheriting from itself, a composite
//     containing itself) and `checked()` reports them. No model can leak.
//  2. No input crashes. Unknown names, dangling links, unconvertible default
//     values and malformed derivations are all representable and all become
//     `ModelIssue`s; nothing on these paths traps.
//  3. `checked()` reports every problem at once (`ModelError.issues`), each naming
//     its entity and property and carrying a typed `ModelIssue.Kind`.
//  4. A `CheckedModel` exists only for a model with no issues. Entities are
//     numbered as Core Data numbers them (roots alphabetically, each followed
//     depth-first by its sub-entities alphabetically, from 1); an inherited
//     property has the same index in a sub-entity as in its superentity.
//  5. The version hash depends only on what affects storage (see
//     ModelVersionHash.swift), never on declaration order or process.
//
// Life cycle: building → checking → frozen.
//  - Building: set properties freely, by hand or with the builder
//    (`ManagedObjectModel { Entity(...) { ... } }`, which resolves destination,
//    inverse and parent names once all entities exist).
//  - Checking: `checked()` runs `ModelValidator`; on issues it throws and the model
//    stays editable; on success it assembles the `CheckedModel`.
//  - Frozen: after a successful check every description shares one `FreezeState`;
//    `isEditable` is false and setters ignore changes, recording each in
//    `ignoredMutations` (Core Data throws an Objective-C exception here; ignoring
//    and recording keeps the snapshot a store already uses valid and cannot
//    crash). A frozen description cannot be adopted by another model or entity
//    either: its back link stays, and the adopter's check reports it. Further
//    `checked()` calls return the same snapshot.
//
// Where things are: the description classes and value types in this folder;
// Validation/ (ModelValidator and its topic extensions, ModelIssue, ModelError);
// Checked/ (the snapshot types and CheckedModelAssembler); Builder/ (the result
// builders); ModelVersionHash.swift (hash inputs and encoding); SHA256 in FaultlineSupport.

import Foundation

/// A set of entities: the schema of a store.
public final class ManagedObjectModel: FreezableDescription {
    /// The model's entities, including every sub-entity. Setting the list makes each
    /// entity's `managedObjectModel` point back here.
    public var entities: [EntityDescription] {
        get { storedEntities }
        set {
            guard !rejectsMutation("entities") else { return }
            for old in storedEntities where old.managedObjectModel === self && old.isEditable {
                old.managedObjectModel = nil
            }
            storedEntities = newValue
            // A frozen entity stays with the model that froze it; `checked()` on this
            // model then reports it as belonging to another model.
            for entity in newValue where !entity.rejectsMutation("managedObjectModel") {
                entity.managedObjectModel = self
            }
        }
    }

    private var storedEntities: [EntityDescription] = []

    /// Core Data's `versionIdentifiers`: the model file's
    /// `userDefinedModelVersionIdentifier` (a compiled model may carry several;
    /// a file without one has the empty one). Not part of the entity hashes; a
    /// store created or migrated with the model records them under
    /// `NSStoreModelVersionIdentifiers`. Empty for a model built in code.
    /// Ignored (and recorded) once the model is frozen.
    public var versionIdentifiers: Set<String> = [] {
        didSet { if rejectsMutation("versionIdentifiers") { versionIdentifiers = oldValue } }
    }
    /// Core Data's hash of each entity by name, with the hash Faultline computed
    /// for it when adopted: valid while Faultline's hash is unchanged.
    var adoptedVersionHashes: [String: (computed: Data, coreData: Data)] = [:]

    var freezeState: FreezeState?
    private var checkedSnapshot: CheckedModel?

    var mutationOwnerName: String { "model" }

    public init() {}

    /// Entities by name (the first one wins when names collide, a model error).
    public var entitiesByName: [String: EntityDescription] {
        Dictionary(storedEntities.map { ($0.name ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// False once `checked()` has succeeded.
    public var isEditable: Bool { freezeState == nil }

    /// Changes that were ignored because the model was frozen, oldest first.
    public var ignoredMutations: [IgnoredMutation] {
        freezeState?.ignoredMutations ?? []
    }

    /// Validates the model and returns its immutable snapshot; freezes the model.
    ///
    /// - Throws: `ModelError` listing every problem found; the model stays editable.
    /// - Complexity: O(n log n) in the number of properties, plus derivation parsing.
    public func checked() throws(ModelError) -> CheckedModel {
        if let checkedSnapshot { return checkedSnapshot }
        var validator = ModelValidator(model: self)
        let issues = validator.validate()
        guard issues.isEmpty else { throw ModelError(issues: issues) }
        let snapshot = CheckedModelAssembler(model: self).assemble()
        let state = FreezeState()
        freezeState = state
        for entity in storedEntities { entity.freeze(state) }
        checkedSnapshot = snapshot
        return snapshot
    }
}
