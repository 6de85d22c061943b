// A relationship between two entities, as Core Data's `NSRelationshipDescription`.
//
// Ownership: the model owns entities, entities own their properties. A
// relationship's `destinationEntity` and `inverseRelationship` are *weak*, so
// relationships pointing at each other (every inverse pair does) never form a
// retain cycle. Consequence, documented for users: a destination entity that is
// not in any model and not held elsewhere disappears, and the relationship then
// reports a missing destination when the model is checked.

/// A link from objects of one entity to objects of another (or the same) entity.
public final class RelationshipDescription: PropertyDescription {
    /// The entity at the other end. Weak (see the file note).
    public weak var destinationEntity: EntityDescription? {
        didSet { if rejectsMutation("destinationEntity") { destinationEntity = oldValue } }
    }

    /// The relationship that goes back from the destination. Weak.
    public weak var inverseRelationship: RelationshipDescription? {
        didSet { if rejectsMutation("inverseRelationship") { inverseRelationship = oldValue } }
    }

    /// The minimum number of destination objects (0 = none required).
    public var minCount: Int = 0 {
        didSet { if rejectsMutation("minCount") { minCount = oldValue } }
    }

    /// The maximum number of destination objects; 1 = to-one, 0 = unbounded to-many
    /// (Core Data's convention), any other value = bounded to-many.
    public var maxCount: Int = 1 {
        didSet { if rejectsMutation("maxCount") { maxCount = oldValue } }
    }

    /// What deleting the source does to the destination objects.
    public var deleteRule: DeleteRule = .nullifyDeleteRule {
        didSet { if rejectsMutation("deleteRule") { deleteRule = oldValue } }
    }

    /// Whether a to-many relationship keeps its destinations in order.
    public var isOrdered: Bool = false {
        didSet { if rejectsMutation("isOrdered") { isOrdered = oldValue } }
    }

    /// True unless `maxCount` is exactly 1.
    public var isToMany: Bool { maxCount != 1 }

    /// Destination and inverse given by name (declarative builder), resolved by
    /// `ManagedObjectModel.init(_:)`; what stays unresolved is reported by `checked()`.
    package var unresolvedDestinationName: String?
    package var unresolvedInverseName: String?

    public override init() {
        super.init()
    }
}
