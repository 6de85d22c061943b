// The common part of attributes and relationships, as Core Data's
// `NSPropertyDescription`.
//
// The class hierarchy mirrors Core Data's (PropertyDescription → AttributeDescription
// → DerivedAttributeDescription / CompositeAttributeDescription, and
// RelationshipDescription). The base classes are `public`, not `open`: the
// hierarchy is closed to other modules, so the validator knows every kind.

import Foundation

/// A named property of an entity: an attribute or a relationship.
public class PropertyDescription: FreezableDescription {
    /// The property's name; a valid identifier, unique in its entity and its ancestors.
    public var name: String = "" {
        didSet { if rejectsMutation("name") { name = oldValue } }
    }

    /// Whether the property may be nil when saved. Core Data's default is `true`.
    public var isOptional: Bool = true {
        didSet { if rejectsMutation("isOptional") { isOptional = oldValue } }
    }

    /// Whether the property lives only in memory (no column, no version hash impact
    /// beyond the flag itself).
    public var isTransient: Bool = false {
        didSet { if rejectsMutation("isTransient") { isTransient = oldValue } }
    }

    /// Whether the store keeps a single-column index on the property's column.
    public var isIndexed: Bool = false {
        didSet { if rejectsMutation("isIndexed") { isIndexed = oldValue } }
    }

    /// Core Data's `isIndexedBySpotlight`: the property goes into the app's
    /// Spotlight index on Apple platforms. Kept so models read and write back
    /// whole; it changes nothing in the store, nor in the version hash.
    public var isIndexedBySpotlight: Bool = false {
        didSet { if rejectsMutation("isIndexedBySpotlight") { isIndexedBySpotlight = oldValue } }
    }

    /// Free-form application data; not part of the version hash.
    public var userInfo: [AnyHashable: Any]? {
        didSet { if rejectsMutation("userInfo") { userInfo = oldValue } }
    }

    /// Changes the version hash without changing the structure (forces a migration).
    public var versionHashModifier: String? {
        didSet { if rejectsMutation("versionHashModifier") { versionHashModifier = oldValue } }
    }

    /// The property's name in the previous model version, for migration; not hashed.
    public var renamingIdentifier: String? {
        didSet { if rejectsMutation("renamingIdentifier") { renamingIdentifier = oldValue } }
    }

    /// The entity whose `properties` list this property; set by `EntityDescription`.
    /// Weak: entities own their properties, never the other way round.
    public internal(set) weak var entity: EntityDescription?

    /// Whether the property is computed by the store (true for derived attributes).
    public var isReadOnly: Bool { false }

    var freezeState: FreezeState?

    /// False once the model holding the property has been checked and frozen.
    public var isEditable: Bool { freezeState == nil }

    public init() {}

    /// `Entity.property`, used in issues and ignored-mutation reports.
    var qualifiedName: String {
        "\(entity?.name ?? "?").\(name)"
    }

    var mutationOwnerName: String { qualifiedName }

    /// Freezes the property and anything it owns.
    func freeze(_ state: FreezeState) {
        freezeState = state
    }
}
