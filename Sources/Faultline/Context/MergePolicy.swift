/// How a save resolves conflicts: an object changed in the store since it was
/// read (optimistic locking), or a uniqueness constraint already held by
/// another row. Core Data's policies, with Core Data's semantics.
public enum MergePolicy: Sendable, Equatable {
    /// Fail the save, listing every conflict with the objects involved.
    case error
    /// Property by property, the store's changes win over the object's; the
    /// object's other changes are kept. A new object that duplicates a stored
    /// uniqueness constraint is discarded in favour of the stored one.
    case mergeByPropertyStoreTrump
    /// Property by property, the object's changes win; the store's changes to
    /// other properties are kept. A new object that duplicates a stored
    /// uniqueness constraint is merged into the stored one.
    case mergeByPropertyObjectTrump
    /// The object's whole state overwrites the store's.
    case overwrite
    /// The object's changes are discarded in favour of the store.
    case rollback
}
