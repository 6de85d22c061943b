/// A relationship's destinations as IDs, without materialising them: Core
/// Data's `objectIDs(forRelationshipNamed:)`, and the same for one to-one.
/// Reading a to-one's destination through `value(forKey:)` or a typed key
/// registers a fault for it in the context — an object per row, which a
/// full fetch that only wants the key (to group, to count, to look it up in
/// a cache of its own) should not pay. The ID comes from the object's row,
/// or from the change not yet saved.
extension ManagedObject {
    /// The IDs of the destinations of the relationship `key`: its members in
    /// order for a to-many (loaded once, as reading the relationship loads
    /// them, their rows cached, their own faults not fired), or the one
    /// destination of a to-one (none: empty).
    public func objectIDs(forRelationshipNamed key: String) throws -> [ManagedObjectID] {
        let (entity, property) = try resolve(key)
        guard case .relationship(let index) = property else {
            throw ObjectAccessError.wrongType(entity: entity.name, key: key, expected: "a relationship")
        }
        if entity.relationships[index].isToMany { return members(at: index).map(\.objectID) }
        return destinationID(at: index).map { [$0] } ?? []
    }

    /// The ID of the destination of the to-one `key`, nil when it has none;
    /// no object is made for it.
    public func objectID(forRelationshipNamed key: String) throws -> ManagedObjectID? {
        let (entity, property) = try resolve(key)
        guard case .relationship(let index) = property, !entity.relationships[index].isToMany else {
            throw ObjectAccessError.wrongType(entity: entity.name, key: key, expected: "a to-one relationship")
        }
        return destinationID(at: index)
    }

    /// The typed form: the destination's ID of a typed to-one.
    public func objectID<Destination>(for key: ToOneKey<Destination>) throws -> ManagedObjectID? {
        guard let index = key.slot.index(in: self) else { throw refusal(key.slot) }
        return destinationID(at: index)
    }

    /// The to-one at `index` as an ID, resolving nothing.
    func destinationID(at index: Int) -> ManagedObjectID? {
        fireFault()
        guard index < toOne.count else { return nil }
        switch toOne[index] {
        case .object(let object): return object?.objectID
        case .committed: return committedDestination(at: index)
        case .id(let id): return id
        }
    }
}
