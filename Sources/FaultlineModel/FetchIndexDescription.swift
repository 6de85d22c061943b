// Fetch indexes: multi-column indexes an entity asks the store to maintain
// (Core Data's `NSFetchIndexDescription` and `NSFetchIndexElementDescription`).
// The store names them `Z_<Entity>_<indexName>`.

/// A named index over one or more properties of an entity.
public final class FetchIndexDescription: FreezableDescription {
    /// The index's name; a valid identifier, unique in its entity.
    public var name: String {
        didSet { if rejectsMutation("name") { name = oldValue } }
    }

    /// The indexed properties, most significant first.
    public var elements: [FetchIndexElementDescription] {
        didSet { if rejectsMutation("elements") { elements = oldValue } }
    }

    /// The entity whose `indexes` list this index; set by `EntityDescription`.
    public internal(set) weak var entity: EntityDescription?

    var freezeState: FreezeState?

    /// False once the model has been checked and frozen.
    public var isEditable: Bool { freezeState == nil }

    var mutationOwnerName: String { "\(entity?.name ?? "?").\(name)" }

    public init(name: String, elements: [FetchIndexElementDescription]) {
        self.name = name
        self.elements = elements
    }

    func freeze(_ state: FreezeState) {
        freezeState = state
        for element in elements { element.freezeState = state }
    }
}

/// How an index element is collated. R-tree indexes are accepted in the model and
/// hashed; whether a store supports them is the schema layer's decision.
public enum FetchIndexElementType: UInt, Sendable, Hashable {
    case binary = 0
    case rTree = 1
}

/// One property of a fetch index, with its sort direction.
public final class FetchIndexElementDescription: FreezableDescription {
    /// The indexed property's name (an attribute, a composite leaf key path, or a
    /// to-one relationship of the entity or its ancestors).
    public var propertyName: String {
        didSet { if rejectsMutation("propertyName") { propertyName = oldValue } }
    }

    /// Ascending (default) or descending.
    public var isAscending: Bool = true {
        didSet { if rejectsMutation("isAscending") { isAscending = oldValue } }
    }

    /// Binary (default) or R-tree collation.
    public var collationType: FetchIndexElementType {
        didSet { if rejectsMutation("collationType") { collationType = oldValue } }
    }

    var freezeState: FreezeState?

    var mutationOwnerName: String { "index element \(propertyName)" }

    /// Core Data's initializer: index `property` with the given collation.
    public init(property: PropertyDescription, collationType: FetchIndexElementType) {
        self.propertyName = property.name
        self.collationType = collationType
    }

    /// Index the property named `propertyName`.
    public init(propertyName: String, isAscending: Bool = true, collationType: FetchIndexElementType = .binary) {
        self.propertyName = propertyName
        self.isAscending = isAscending
        self.collationType = collationType
    }
}
