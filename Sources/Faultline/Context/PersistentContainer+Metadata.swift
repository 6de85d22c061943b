// The store's metadata through the container, as through its coordinator
// (PersistentStoreCoordinator+Metadata.swift).

extension PersistentContainer {
    /// The store's metadata: `PersistentStoreCoordinator.metadata()`.
    public func metadata() throws -> StoreMetadata { try coordinator.metadata() }

    /// Writes the app's metadata keys at once: `PersistentStoreCoordinator.setMetadata(_:)`.
    public func setMetadata(_ metadata: StoreMetadata) throws { try coordinator.setMetadata(metadata) }
}
