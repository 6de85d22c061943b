import FaultlineSupport

/// The permanent ID a save gave each of its inserts, beside the IDs they had:
/// what references between objects inserted together resolve through, and
/// what child contexts holding those objects under temporary IDs adopt.
///
/// Kept as the request's own list of inserts and the permanent IDs in the same
/// order, both shared, not copied: a table from temporary to permanent ID was
/// a hash table allocated and filled on every save, and most saves never look
/// a temporary ID up (their references point at saved objects). A save of many
/// inserts gets the table, built on its first lookup of a temporary ID,
/// instead of a search of the list per lookup.
struct PromotedIDs: Sendable {
    /// The inserts, in the request's order: their IDs before the save
    /// (temporary, or permanent when `obtainPermanentIDs` gave them one).
    private let inserts: [SaveRequest.Insert]
    /// The ID of each insert after the save, in the same order.
    let permanent: [ManagedObjectID]
    /// Temporary ID → position, for a save of more than `searchLimit`
    /// inserts: built on the first lookup, by whichever thread makes it (the
    /// writer during the save, the context after it), hence the lock.
    private let positions: Locked<[ManagedObjectID: Int]?>?

    /// Up to this many inserts, a temporary ID is looked up by a search of the
    /// list: a few comparisons of IDs against a table's hashing and allocation.
    static let searchLimit = 16

    init(inserts: [SaveRequest.Insert] = [], permanent: [ManagedObjectID] = []) {
        precondition(inserts.count == permanent.count, "one permanent ID per insert")
        self.inserts = inserts
        self.permanent = permanent
        positions = inserts.count > Self.searchLimit ? Locked(nil) : nil
    }

    /// `id` itself when permanent or not inserted by the save, else the
    /// permanent ID the save gave it.
    @inline(__always)
    func resolve(_ id: ManagedObjectID) -> ManagedObjectID { id.isTemporaryID ? promotion(of: id) : id }

    private func promotion(of id: ManagedObjectID) -> ManagedObjectID {
        if let positions {
            return positions.withLock { table in
                if table == nil { table = Self.table(of: inserts) }
                return table?[id]
            }.map { permanent[$0] } ?? id
        }
        for position in inserts.indices where inserts[position].id == id { return permanent[position] }
        return id
    }

    /// `keys` with each temporary ID resolved: the same window, shared, when
    /// it holds none (most rows refer to saved objects only), else a new one
    /// from `arena`.
    func resolving(_ keys: ToOneKeys, in arena: inout RowArena<ManagedObjectID?>) -> ToOneKeys {
        guard keys.contains(where: { $0?.isTemporaryID == true }) else { return keys }
        return arena.window(keys.count) { keys[$0].map(resolve) }
    }

    /// Whether no insert had a temporary ID: nothing for a child to adopt.
    var isEmpty: Bool { !inserts.contains { $0.id.isTemporaryID } }

    /// Each temporary ID with the permanent ID that replaced it.
    func forEach(_ body: (_ temporary: ManagedObjectID, _ permanent: ManagedObjectID) -> Void) {
        for position in inserts.indices where inserts[position].id.isTemporaryID {
            body(inserts[position].id, permanent[position])
        }
    }

    private static func table(of inserts: [SaveRequest.Insert]) -> [ManagedObjectID: Int] {
        var table = [ManagedObjectID: Int](minimumCapacity: inserts.count)
        for position in inserts.indices where inserts[position].id.isTemporaryID { table[inserts[position].id] = position }
        return table
    }
}
