import Foundation

extension PersistentStoreCoordinator {
    /// The ID a URI from `uriRepresentation()` names in this store, as Core
    /// Data's `managedObjectID(forURIRepresentation:)`: nil when the URI is not
    /// a saved object's, names another store (by UUID) or an entity this
    /// model does not have. Like Core Data, it does not read the store: the
    /// object may since have been deleted, which a fetch or `existingObject`
    /// then reports.
    public func managedObjectID(forURIRepresentation url: URL) -> ManagedObjectID? {
        guard let (uuid, entityName, key) = ManagedObjectID.parse(url),
              uuid.caseInsensitiveCompare(storeUUID) == .orderedSame,
              let entity = model.entity(named: entityName) else { return nil }
        return ManagedObjectID(storeIdentifier: identifier, entityIndex: entity.index, primaryKey: key)
    }
}
