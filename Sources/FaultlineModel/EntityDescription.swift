// An entity: a named kind of object with properties, as Core Data's
// `NSEntityDescription`.
//
// Ownership: the model owns its entities; an entity owns its properties and
// indexes and (as in Core Data) its `subentities`. Back links — a property's
// `entity`, an entity's `superentity` and `managedObjectModel` — are weak.
// Setting `subentities` so that an entity would (transitively) contain itself is
// refused for the offending entries and reported as `.inheritanceCycle`, so the
// strong sub-entity graph is always a forest and never leaks.

import Foundation

/// A kind of managed object: name, properties, inheritance, constraints, indexes.
public final class EntityDescription: FreezableDescription {
    /// The entity's name; a valid identifier, unique in the model.
    public var name: String? {
        didSet { if rejectsMutation("name") { name = oldValue } }
    }

    /// The class that represents the entity's objects. Not part of the version hash.
    public var managedObjectClassName: String = "ManagedObject" {
        didSet { if rejectsMutation("managedObjectClassName") { managedObjectClassName = oldValue } }
    }

    /// Abstract entities have no instances of their own, only of sub-entities.
    public var isAbstract: Bool = false {
        didSet { if rejectsMutation("isAbstract") { isAbstract = oldValue } }
    }

    /// The entity's own properties (inherited ones are not listed). Setting the list
    /// makes each property's `entity` point back here.
    public var properties: [PropertyDescription] {
        get { storedProperties }
        set {
            guard !rejectsMutation("properties") else { return }
            for old in storedProperties where old.entity === self && old.isEditable { old.entity = nil }
            storedProperties = newValue
            // A frozen property stays with the entity that froze it.
            for property in newValue where !property.rejectsMutation("entity") {
                property.entity = self
            }
        }
    }

    /// The entity's direct sub-entities. Setting the list sets each sub-entity's
    /// `superentity`; an entry that would create an inheritance cycle is dropped
    /// and reported by `checked()`.
    public var subentities: [EntityDescription] {
        get { storedSubentities }
        set {
            guard !rejectsMutation("subentities") else { return }
            var accepted: [EntityDescription] = []
            for candidate in newValue {
                if candidate.reachesThroughSubentities(self) {
                    rejectedSubentities.append(candidate.name ?? "")
                } else {
                    accepted.append(candidate)
                }
            }
            for old in storedSubentities where old.superentity === self && old.isEditable {
                old.superentity = nil
            }
            storedSubentities = accepted
            for sub in accepted where !sub.rejectsMutation("superentity") {
                sub.superentity = self
            }
        }
    }

    /// The entity this one inherits from; set through the parent's `subentities`.
    public private(set) weak var superentity: EntityDescription?

    /// The model whose `entities` list this entity; set by `ManagedObjectModel`.
    public internal(set) weak var managedObjectModel: ManagedObjectModel?

    /// Sets of property names whose values must be unique across the entity's
    /// objects: `[["email"], ["firstName", "lastName"]]` is one single-property and
    /// one compound constraint. Core Data types this `[[Any]]`; names are enough.
    public var uniquenessConstraints: [[String]] = [] {
        didSet { if rejectsMutation("uniquenessConstraints") { uniquenessConstraints = oldValue } }
    }

    /// Core Data's compound indexes (deprecated there since iOS 11, still in
    /// models and stores of that age): each a list of property names, indexed
    /// ascending in a store index named `<TABLE>_<COLUMN>_<COLUMN>…`.
    public var compoundIndexes: [[String]] = [] {
        didSet { if rejectsMutation("compoundIndexes") { compoundIndexes = oldValue } }
    }

    /// Multi-column fetch indexes. Setting the list makes each index's `entity`
    /// point back here.
    public var indexes: [FetchIndexDescription] {
        get { storedIndexes }
        set {
            guard !rejectsMutation("indexes") else { return }
            storedIndexes = newValue
            for index in newValue where !index.rejectsMutation("entity") {
                index.entity = self
            }
        }
    }

    /// The entity's name in the previous model version, for migration; not hashed.
    public var renamingIdentifier: String? {
        didSet { if rejectsMutation("renamingIdentifier") { renamingIdentifier = oldValue } }
    }

    /// Changes the version hash without changing the structure.
    public var versionHashModifier: String? {
        didSet { if rejectsMutation("versionHashModifier") { versionHashModifier = oldValue } }
    }

    /// Free-form application data; not part of the version hash.
    public var userInfo: [AnyHashable: Any]? {
        didSet { if rejectsMutation("userInfo") { userInfo = oldValue } }
    }

    private var storedProperties: [PropertyDescription] = []
    private var storedSubentities: [EntityDescription] = []
    private var storedIndexes: [FetchIndexDescription] = []

    /// Names of sub-entities refused because they would have formed a cycle.
    private(set) var rejectedSubentities: [String] = []

    /// Superentity given by name (declarative builder) and not found in the model.
    package var unresolvedSuperentityName: String?

    var freezeState: FreezeState?

    /// False once the model holding the entity has been checked and frozen.
    public var isEditable: Bool { freezeState == nil }

    var mutationOwnerName: String { name ?? "?" }

    public init() {}

    /// True when `target` is this entity or reachable through `subentities`.
    package func reachesThroughSubentities(_ target: EntityDescription) -> Bool {
        var pending: [EntityDescription] = [self]
        var visited = Set<ObjectIdentifier>()
        while let next = pending.popLast() {
            guard visited.insert(ObjectIdentifier(next)).inserted else { continue }
            if next === target { return true }
            pending.append(contentsOf: next.storedSubentities)
        }
        return false
    }

    func freeze(_ state: FreezeState) {
        freezeState = state
        for property in storedProperties { property.freeze(state) }
        for index in storedIndexes { index.freeze(state) }
    }
}
