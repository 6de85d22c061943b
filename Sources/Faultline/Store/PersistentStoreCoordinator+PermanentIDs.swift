/// Keys reserved ahead of a save (Core Data's `obtainPermanentIDs(for:)`).
extension PersistentStoreCoordinator {
    /// A permanent ID for each of `temporaries`, in order: keys reserved now
    /// from `Z_PRIMARYKEY` in one write transaction (one block per inheritance
    /// root), so no other insert ever takes them; nothing else is written, and
    /// no other context is told (no row exists yet).
    func reservePermanentIDs(for temporaries: [ManagedObjectID]) throws -> [ManagedObjectID] {
        var byRoot: [Int: [Int]] = [:]
        for (position, id) in temporaries.enumerated() {
            byRoot[model.entities[id.entityIndex].rootEntityIndex, default: []].append(position)
        }
        let (ids, _, _) = try writer.write { connection -> ([ManagedObjectID], CommittedChanges?) in
            var ids = temporaries
            for (root, positions) in byRoot.sorted(by: { $0.key < $1.key }) {
                let keys = try PrimaryKeyAllocator.reserve(
                    positions.count, rootEntityNumber: root + 1, floor: keyFloors[root + 1] ?? 0, on: connection,
                    known: writer.keyCounters)
                for (offset, position) in positions.enumerated() {
                    ids[position] = ManagedObjectID(
                        storeIdentifier: identifier, entityIndex: temporaries[position].entityIndex,
                        primaryKey: keys.lowerBound + Int64(offset))
                }
            }
            return (ids, nil)
        }
        return ids
    }
}
