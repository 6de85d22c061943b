/// Relationship access. Inverses are kept right in memory at once.
extension ManagedObject {
    /// The destination of the to-one relationship at `index`, as a fault if it
    /// was not loaded yet.
    @usableFromInline
    func destination(at index: Int) -> ManagedObject? {
        fireFault()
        guard index < toOne.count else { return nil }
        let id: ManagedObjectID?
        switch toOne[index] {
        case .object(let object):
            return object
        case .committed:
            id = committedDestination(at: index)
        case .id(let stored):
            id = stored
        }
        guard let id, let context = managedObjectContext else { return nil }
        let object = context.object(owned: id)
        toOne[index] = .object(object)
        if let advisor = context.faultAdvisor { advisor.reached([object], from: self, key: runtime.entity.relationships[index].name) }
        return object
    }

    /// The destination the committed snapshot holds for the to-one at `index`.
    func committedDestination(at index: Int) -> ManagedObjectID? {
        guard let committed, index < committed.toOne.count else { return nil }
        return committed.toOne[index]
    }

    /// The to-one state at `index`, `.committed` read out as the ID it stands for.
    func toOneState(at index: Int) -> ToOneState {
        if case .committed = toOne[index] { return .id(committedDestination(at: index)) }
        return toOne[index]
    }

    /// Turns `.committed` states into the IDs they stand for, before the
    /// committed snapshot is replaced by a row this object's state did not come from.
    func pinCommittedToOnes() {
        for index in toOne.indices {
            if case .committed = toOne[index] { toOne[index] = toOneState(at: index) }
        }
    }

    /// The members of the to-many relationship at `index`, loading them (one
    /// statement) the first time.
    @usableFromInline
    func members(at index: Int) -> [ManagedObject] {
        guard let state = loadedToMany(at: index) else { return [] }
        return state.members ?? []
    }

    func toManyState(at index: Int) -> ToManyState? {
        fireFault()
        guard index < toMany.count else { return nil }
        if let state = toMany[index] { return state }
        let state = ToManyState()
        toMany[index] = state
        return state
    }

    func loadedToMany(at index: Int) -> ToManyState? {
        guard let state = toManyState(at: index) else { return nil }
        if !state.isLoaded { managedObjectContext?.loadToMany(of: self, at: index, into: state) }
        return state
    }

    /// Sets a to-one destination.
    public func setDestination(_ destination: ManagedObject?, forKey key: String) throws {
        let (_, property) = try resolve(key)
        guard case .relationship(let index) = property else { return try setValue(destination, forKey: key) }
        try setDestination(destination, at: index)
    }

    /// Adds `member` to a to-many relationship.
    public func addObject(_ member: ManagedObject, toRelationship key: String) throws {
        let (entity, property) = try resolve(key)
        guard case .relationship(let index) = property, entity.relationships[index].isToMany else {
            throw ObjectAccessError.wrongType(entity: entity.name, key: key, expected: "a to-many relationship")
        }
        guard let context = managedObjectContext else { throw ObjectAccessError.otherContext(description) }
        try checkDestination(member, forRelationshipAt: index, in: context)
        context.addMember(member, to: self, at: index)
    }

    /// Removes `member` from a to-many relationship.
    public func removeObject(_ member: ManagedObject, fromRelationship key: String) throws {
        let (entity, property) = try resolve(key)
        guard case .relationship(let index) = property, entity.relationships[index].isToMany else {
            throw ObjectAccessError.wrongType(entity: entity.name, key: key, expected: "a to-many relationship")
        }
        managedObjectContext?.removeMember(member, from: self, at: index)
    }

    @usableFromInline
    func setDestination(_ destination: ManagedObject?, at index: Int) throws {
        guard let context = managedObjectContext else { throw ObjectAccessError.otherContext(description) }
        if let destination { try checkDestination(destination, forRelationshipAt: index, in: context) }
        context.setToOne(of: self, at: index, to: destination)
    }

    func replaceMembers(_ objects: [ManagedObject], at index: Int) throws {
        guard let context = managedObjectContext else { throw ObjectAccessError.otherContext(description) }
        for object in objects { try checkDestination(object, forRelationshipAt: index, in: context) }
        let wanted = Set(objects.map(ObjectIdentifier.init))
        for member in members(at: index) where !wanted.contains(ObjectIdentifier(member)) {
            context.removeMember(member, from: self, at: index)
        }
        for object in objects { context.addMember(object, to: self, at: index) }
        // An ordered to-many takes the order given, as Core Data's ordered set does.
        guard runtime.entity.relationships[index].isOrdered, let state = loadedToMany(at: index) else { return }
        var seen = Set<ObjectIdentifier>()
        let order = objects.filter { seen.insert(ObjectIdentifier($0)).inserted }
        if context.handle.recordsUndo, let members = state.members, !members.elementsEqual(order, by: ===) {
            context.captureToManyForUndo(self, index)
        }
        if state.reorder(order) { context.markRelationshipChanged(self, index) }
    }

    /// `context` is this object's. A context has one handle, so comparing
    /// handles asks whether `object` belongs to it without loading the weak
    /// reference again (a weak load and a side-table release each).
    private func checkDestination(_ object: ManagedObject, forRelationshipAt index: Int, in context: ManagedObjectContext) throws {
        guard object.contextHandle === context.handle else {
            throw ObjectAccessError.otherContext(object.description)
        }
        let destinationIndex = runtime.entity.relationships[index].destinationEntityIndex
        guard object.entityIndex == destinationIndex
            || context.runtimes[destinationIndex].entity.hierarchyIndexes.contains(object.entityIndex)
        else {
            throw ObjectAccessError.wrongDestination(
                entity: runtime.entity.name, key: runtime.entity.relationships[index].name,
                expected: context.runtimes[destinationIndex].entity.name)
        }
    }
}
