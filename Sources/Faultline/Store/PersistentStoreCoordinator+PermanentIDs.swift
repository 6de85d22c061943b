/// Keys reserved ahead of a save (Core Data's `obtainPermanentIDs(for:)`).
extension PersistentStoreCoordinator {
    /// A permanent ID for each of `temporaries`, in order: keys reserved now
    /// from `Z_PRIMARYKEY` in one write transaction, as a save reserves them,
    /// so no other insert ever takes them; nothing else is written, and no
    /// other context is told (no row exists yet).
    func reservePermanentIDs(for temporaries: [ManagedObjectID]) throws -> [ManagedObjectID] {
        let (ids, _, _) = try writer.write { connection -> ([ManagedObjectID], CommittedChanges?) in
            var ids = temporaries
            try reservePermanentKeys(count: temporaries.count, id: { temporaries[$0] }, on: connection) { ids[$0] = $1 }
            return (ids, nil)
        }
        return ids
    }
}
