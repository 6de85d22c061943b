/// The relationship engine: every change to one side updates the inverse side
/// in memory at once, and records what the save must write (join rows, hidden
/// keys) — the object's own to-one keys are written from its state.
extension ManagedObjectContext {
    private func relationship(_ object: ManagedObject, _ index: Int) -> CheckedRelationship {
        object.runtime.entity.relationships[index]
    }

    func markRelationshipChanged(_ object: ManagedObject, _ index: Int) {
        object.changeMasks[relationship: index] = true
        noteChange(object)
    }

    func setToOne(of source: ManagedObject, at index: Int, to destination: ManagedObject?) {
        let old = source.destination(at: index)
        guard old !== destination else { return }
        if handle.recordsUndo { captureToOneChange(relationship(source, index), of: source, from: old, to: destination) }
        setToOneRaw(source, index, destination)
        guard let inverse = source.runtime.inverses[index] else { return }
        if inverse.isToMany {
            if let old { removeRaw(old, inverse.index, source) }
            guard let destination else { return }
            // A to-one and its inverse's membership change together: an object
            // never saved that pointed nowhere is in no one's to-many. Not so
            // for a saved one (a list loaded after its row was read), nor with
            // an undo manager (a saved deletion under a no-action rule, undone,
            // brings back an object its owner never dropped).
            if old == nil, source.isInsertedStorage, undoManagerStorage == nil,
               let state = destination.toManyState(at: inverse.index) {
                state.addAbsent(source)
                markRelationshipChanged(destination, inverse.index)
            } else {
                addRaw(destination, inverse.index, source)
            }
        } else {
            if let old { setToOneRaw(old, inverse.index, nil) }
            if let destination {
                if let previous = destination.destination(at: inverse.index), previous !== source {
                    setToOneRaw(previous, index, nil)
                }
                setToOneRaw(destination, inverse.index, source)
            }
        }
    }

    func addMember(_ member: ManagedObject, to source: ManagedObject, at index: Int) {
        guard let state = source.toManyState(at: index), !state.contains(member) else { return }
        let inverse = source.runtime.inverses[index]
        if let inverse, !inverse.isToMany {
            // One-to-many: the member's to-one moves; that updates both owners.
            setToOne(of: member, at: inverse.index, to: source)
            return
        }
        if handle.recordsUndo { captureMembershipChange(relationship(source, index), of: source, member: member) }
        state.add(member)
        markRelationshipChanged(source, index)
        if let inverse { addRaw(member, inverse.index, source) }
        recordStoredMembership(source, index, member, added: true)
    }

    func removeMember(_ member: ManagedObject, from source: ManagedObject, at index: Int) {
        let inverse = source.runtime.inverses[index]
        if let inverse, !inverse.isToMany {
            if member.destination(at: inverse.index) === source { setToOne(of: member, at: inverse.index, to: nil) }
            return
        }
        guard let state = source.toManyState(at: index) else { return }
        if state.isLoaded, !state.contains(member) { return }
        if handle.recordsUndo { captureMembershipChange(relationship(source, index), of: source, member: member) }
        state.remove(member)
        markRelationshipChanged(source, index)
        if let inverse { removeRaw(member, inverse.index, source) }
        recordStoredMembership(source, index, member, added: false)
    }

    private func setToOneRaw(_ object: ManagedObject, _ index: Int, _ destination: ManagedObject?) {
        object.fireFault()
        // An object whose deletion was saved or merged holds no relationships
        // any more: a one-to-one still naming it (a no-action rule, a store
        // keeping the pair on one side only) has no inverse left to clear.
        guard index < object.toOne.count else { return }
        object.toOne[index] = .object(destination)
        markRelationshipChanged(object, index)
    }

    private func addRaw(_ object: ManagedObject, _ index: Int, _ member: ManagedObject) {
        if object.toManyState(at: index)?.add(member) == true { markRelationshipChanged(object, index) }
    }

    private func removeRaw(_ object: ManagedObject, _ index: Int, _ member: ManagedObject) {
        if object.toManyState(at: index)?.remove(member) == true { markRelationshipChanged(object, index) }
    }

    /// Many-to-many changes become join rows; to-many without inverse, hidden keys.
    private func recordStoredMembership(_ source: ManagedObject, _ index: Int, _ member: ManagedObject, added: Bool) {
        switch coordinator.plans[source.entityIndex].writes.membership[index] {
        case let .joinRow(table, sourceFirst, _, _):
            links.recordJoinRow(table: table, sourceFirst: sourceFirst, entityIndex: source.entityIndex, relationship: index,
                                source: source, member: member, added: added)
            // A relationship that is its own inverse reads its members from one
            // column: each direction of a link is a row, so both objects read it.
            if member !== source, coordinator.model.isOwnInverse(coordinator.model.entities[source.entityIndex].relationships[index]) {
                links.recordJoinRow(table: table, sourceFirst: sourceFirst, entityIndex: source.entityIndex, relationship: index,
                                    source: member, member: source, added: added)
            }
        case .hiddenKey:
            links.recordHiddenKey(member: member, entityIndex: source.entityIndex, relationship: index, owner: added ? source : nil)
            noteChange(member)
        case .inRows:
            break
        }
    }

    /// The members a to-many had when last read or saved: the loaded ones while
    /// the relationship is unchanged, else the store's (one statement, which
    /// leaves the relationship's own state alone).
    func committedMembers(of object: ManagedObject, at index: Int) -> [ManagedObject] {
        if index < object.toMany.count, let state = object.toMany[index], let members = state.members,
           !object.changeMasks[relationship: index] {
            return members
        }
        do {
            let ids = try coordinator.toManyDestinations(of: object.objectID, relationship: relationship(object, index))
            return ids.map { self.object(owned: $0) }
        } catch {
            recordFaultFailure(error, of: object, relationshipAt: index)
            return []
        }
    }

    /// Loads a to-many relationship's members from the store (one statement),
    /// then applies the changes made while it was not loaded.
    func loadToMany(of object: ManagedObject, at index: Int, into state: ToManyState) {
        guard !object.isInsertedStorage else {
            state.load([])
            return
        }
        counters.relationshipFaultsFired += 1
        let relationship = relationship(object, index)
        let ids: [ManagedObjectID]
        if let fromParent = parentMembers(of: object.objectID, at: index) {
            ids = fromParent
        } else {
            do {
                ids = try coordinator.toManyDestinations(of: object.objectID, relationship: relationship)
            } catch {
                // Left unloaded: the next access reads it again.
                recordFaultFailure(error, of: object, relationshipAt: index)
                return
            }
            faultAdvisor?.loadedToMany(of: object, key: relationship.name)
        }
        var members = ids.map { self.object(owned: $0) }
        faultAdvisor?.reached(members, from: object, key: relationship.name)
        // Members this context moved elsewhere have left. A member whose
        // inverse it did not change stays: the store's row is newer than
        // whatever older snapshot of it the context holds.
        if let inverse = relationship.inverseIndex, relationship.inverseIsToMany != true {
            members = members.filter { member in
                guard member.changeMasks[relationship: inverse],
                      case .object(let owner) = member.toOne[inverse] else {
                    return true
                }
                return owner === object
            }
        }
        state.load(members)
    }
}
