/// Undo and redo of a context's changes, as Core Data's undo manager support.
///
/// While the context has an `undoManager`, the first change to an object in a
/// step takes the object's state before it (`UndoObjectState`); a to-many's
/// members are taken the first time that relationship changes. When the
/// event ends (`processPendingChanges()`, the end of a `perform` block, the
/// start of a save, or the manager asking before it groups or undoes), delete
/// rules run and the step's states become one undo action. Undoing it puts
/// each object back: values raw, relationships through the relationship
/// engine (so inverses, join rows and hidden keys follow), inserted objects
/// out of the context, deleted ones back in — and registers the states it
/// replaced as the redo.
///
/// Across a save the restored values are changes again, as in Core Data: an
/// object whose insert is undone after its save is deleted, one whose delete
/// is undone after its save is inserted again under its old ID.
extension ManagedObjectContext: UndoCheckpointObserver {
    /// Records undo steps of this context's changes; nil (the default, as on
    /// iOS) records nothing and costs nothing.
    public var undoManager: UndoManager? {
        get { undoManagerStorage }
        set {
            guard newValue !== undoManagerStorage else { return }
            undoManagerStorage?.removeCheckpointObserver(self)
            undoManagerStorage = newValue
            newValue?.addCheckpointObserver(self)
            undoCapture = UndoCapture()
            handle.recordsUndo = newValue != nil
        }
    }

    /// Undoes the last undo step (`undoManager?.undo()`).
    public func undo() { undoManager?.undo() }
    /// Redoes the last undone step.
    public func redo() { undoManager?.redo() }

    func undoCheckpoint(_ manager: UndoManager) {
        guard manager === undoManager else { return }
        registerPendingUndo()
    }

    /// Ends an event, as Core Data's end of a run-loop turn: delete rules
    /// run, the step's changes become an undo action (the cascade with them),
    /// and the objects changed are announced.
    func endEvent() {
        if !pendingDeletes.isEmpty { try? propagateDeletes() }
        if let undoManager {
            registerPendingUndo()
            undoManager.endEvent()
        }
        announceUnsavedChanges()
    }

    /// Registers the states taken since the last step as one undo action.
    func registerPendingUndo() {
        guard let undoManager, !undoCapture.isEmpty else { return }
        try? propagateDeletes()
        let states = undoCapture.take().map(endingStep)
        undoManager.registerUndo(withTarget: self) { $0.restore(states) }
    }

    /// `state` with what its step changed on the object, now that the step ends.
    private func endingStep(_ state: UndoObjectState) -> UndoObjectState {
        let object = state.object
        guard state.exists, isAttached(object), !object.isDeletedStorage else { return state }
        var ending = state
        var attributes = ChangeMask()
        for index in object.values.indices where index >= state.values.count || object.values[index] != state.values[index] {
            attributes[index] = true
        }
        var toOnes = ChangeMask()
        for index in state.toOne.indices where !object.runtime.isToMany[index] {
            if destinationID(state.toOne[index], of: object, at: index) != destinationID(object.toOneState(at: index), of: object, at: index) {
                toOnes[index] = true
            }
        }
        ending.stepAttributes = attributes
        ending.stepToOnes = toOnes
        for (index, kept) in state.toMany where kept != nil { ending.membersAtStepEnd[index] = object.members(at: index) }
        return ending
    }

    private func destinationID(_ state: ToOneState, of object: ManagedObject, at index: Int) -> ManagedObjectID? {
        switch state {
        case .object(let destination): destination?.objectID
        case .id(let id): id
        case .committed: object.committedDestination(at: index)
        }
    }

    /// Drops every undo step (a rollback or reset, as in Core Data).
    func discardUndo() {
        undoCapture = UndoCapture()
        undoManager?.removeAllActions(withTarget: self)
    }

    // MARK: Taking states

    /// Takes `object`'s state before its first change in this step.
    func captureForUndo(_ object: ManagedObject) {
        undoCapture.keep(undoState(of: object), of: object)
    }

    /// Takes a new object's state: not in the context.
    func captureInsertForUndo(_ object: ManagedObject) {
        undoCapture.keep(.absent(object, saveCount: saveCount), of: object)
    }

    /// Takes `object`'s state and its to-many's members at `index` before the
    /// relationship's first change in this step.
    func captureToManyForUndo(_ object: ManagedObject, _ index: Int) {
        let position = undoCapture.keep(undoState(of: object), of: object)
        guard undoCapture.states[position].exists, !undoCapture.hasToMany(index, at: position) else { return }
        undoCapture.setToMany(undoMembers(of: object, at: index), index, at: position)
    }

    /// Takes the states a to-one change touches, all before any of them
    /// changes: loading an owner's to-many reads its members' in-memory
    /// to-ones, so one taken after the source moved would miss it.
    func captureToOneChange(
        _ relationship: CheckedRelationship, of source: ManagedObject, from old: ManagedObject?, to destination: ManagedObject?
    ) {
        captureForUndo(source)
        guard let inverse = relationship.inverseIndex else { return }
        for partner in [old, destination].compactMap(\.self) {
            if relationship.inverseIsToMany == true {
                captureToManyForUndo(partner, inverse)
            } else {
                captureForUndo(partner)
            }
        }
        if relationship.inverseIsToMany != true, let previous = destination?.destination(at: inverse) {
            captureForUndo(previous)
        }
    }

    /// Takes the states a to-many membership change touches: both sides.
    func captureMembershipChange(_ relationship: CheckedRelationship, of source: ManagedObject, member: ManagedObject) {
        captureToManyForUndo(source, relationship.index)
        if let inverse = relationship.inverseIndex { captureToManyForUndo(member, inverse) }
    }

    private func undoState(of object: ManagedObject) -> UndoObjectState {
        guard isAttached(object), !object.isDeletedStorage else { return .absent(object, saveCount: saveCount) }
        object.fireFault()
        return UndoObjectState(
            object: object, exists: true, values: object.values, toOne: object.toOne.indices.map(object.toOneState(at:)),
            changedAttributes: object.changedAttributes, changedRelationships: object.changedRelationships,
            saveCount: saveCount)
    }

    /// A to-many's members, or nil for an unloaded unordered side whose
    /// inverse is a to-one (an ordered one loads: its order is state too).
    private func undoMembers(of object: ManagedObject, at index: Int) -> [ManagedObject]? {
        let relationship = object.runtime.entity.relationships[index]
        if object.toMany[index]?.isLoaded != true, !relationship.isOrdered, relationship.inverseIndex != nil,
           relationship.inverseIsToMany == false {
            return nil
        }
        return object.members(at: index)
    }

    private func isAttached(_ object: ManagedObject) -> Bool {
        object.contextHandle === handle && registered[object.objectID] === object
    }

    // MARK: Restoring

    /// Puts every object of `targets` back in its state there, registering
    /// their current states as the inverse.
    private func restore(_ steps: [UndoObjectState]) {
        // An object a step only changed (its values or links) that has left
        // the context since — deleted by another context's save or a batch
        // delete merged here — is not brought back: the step did not delete
        // it, so undoing the step does not insert it.
        let targets = steps.filter { target in
            !(target.exists && target.stepAttributes != nil && !isAttached(target.object))
        }.map(keepingMembersSinceStep)
        let current = targets.map { target in
            var state = undoState(of: target.object)
            // The redo puts back what this undo changes, and nothing else.
            if target.exists, state.exists {
                state.stepAttributes = target.stepAttributes
                state.stepToOnes = target.stepToOnes
            }
            // An object entering or leaving the context takes all its to-manys:
            // nothing else holds those without an inverse.
            let indexes = state.exists != target.exists
                ? target.object.runtime.isToMany.indices.filter { target.object.runtime.isToMany[$0] }
                : Array(target.toMany.keys)
            if state.exists { for index in indexes { state.toMany[index] = .some(undoMembers(of: target.object, at: index)) } }
            return state
        }
        undoManager?.registerUndo(withTarget: self) { $0.restore(current) }

        handle.recordsUndo = false
        defer { handle.recordsUndo = undoManager != nil }
        var reattached = Set<ObjectIdentifier>()
        for target in targets where target.exists {
            let object = target.object
            if !isAttached(object) {
                reattach(object)
                reattached.insert(ObjectIdentifier(object))
            } else if object.isDeletedStorage {
                object.isDeletedStorage = false
                pendingDeletes.removeAll { $0 === object }
            }
            if let attributes = target.stepAttributes, !reattached.contains(ObjectIdentifier(object)) {
                for index in object.values.indices where attributes[index] && index < target.values.count {
                    object.values[index] = target.values[index]
                }
            } else {
                object.values = target.values
            }
            noteChange(object)
        }
        for target in targets where target.exists { restoreToOnes(target) }
        for target in targets where target.exists { restoreToManys(target) }
        for target in targets where !target.exists { remove(target.object) }
        for target in targets where target.exists {
            settleChanges(of: target, reattached: reattached.contains(ObjectIdentifier(target.object)))
        }
    }

    /// `target` with each to-many whose members changed since its step (a
    /// merge moved an object in or out) put back by the step's own changes
    /// alone: what the step added leaves, what it removed returns, the rest
    /// stays as it is now. Read before anything is restored.
    private func keepingMembersSinceStep(_ target: UndoObjectState) -> UndoObjectState {
        guard target.exists, !target.membersAtStepEnd.isEmpty, isAttached(target.object) else { return target }
        var adjusted = target
        for (index, atStepEnd) in target.membersAtStepEnd {
            guard let kept = target.toMany[index] ?? nil else { continue }
            let now = target.object.members(at: index)
            let endSet = Set(atStepEnd.map(ObjectIdentifier.init)), nowSet = Set(now.map(ObjectIdentifier.init))
            guard nowSet != endSet else { continue }
            let added = endSet.subtracting(kept.map(ObjectIdentifier.init))
            adjusted.toMany[index] = .some(now.filter { !added.contains(ObjectIdentifier($0)) }
                + kept.filter { !endSet.contains(ObjectIdentifier($0)) && !nowSet.contains(ObjectIdentifier($0)) })
        }
        return adjusted
    }

    private func restoreToOnes(_ target: UndoObjectState) {
        let object = target.object
        for index in target.toOne.indices where !object.runtime.isToMany[index] && target.stepToOnes?[index] != false {
            var wanted: ManagedObject?
            switch target.toOne[index] {
            case .object(let destination): wanted = destination
            case .id(let id): wanted = id.map(self.object(owned:))
            case .committed: wanted = object.committedDestination(at: index).map(self.object(owned:))
            }
            // A destination that left the context since (it cannot, while the
            // steps are undone in order) is not linked back.
            if let destination = wanted, !isAttached(destination) { wanted = nil }
            if object.destination(at: index) !== wanted { setToOne(of: object, at: index, to: wanted) }
        }
    }

    private func restoreToManys(_ target: UndoObjectState) {
        let object = target.object
        for (index, kept) in target.toMany {
            guard let wanted = kept?.filter(isAttached) else { continue }
            let wantedSet = Set(wanted.map(ObjectIdentifier.init))
            for member in object.members(at: index) where !wantedSet.contains(ObjectIdentifier(member)) {
                removeMember(member, from: object, at: index)
            }
            for member in wanted { addMember(member, to: object, at: index) }
            if let state = object.loadedToMany(at: index), state.reorder(wanted),
               object.runtime.entity.relationships[index].isOrdered {
                markRelationshipChanged(object, index)
            }
        }
    }

    /// Takes an object out: an unsaved insert leaves the context, a saved
    /// object is deleted. Its relationships are cleared (nullified, whatever
    /// the delete rule: objects a cascade would reach have states of their
    /// own in the step), which also drops it from to-manys not loaded.
    private func remove(_ object: ManagedObject) {
        guard isAttached(object), !object.isDeletedStorage else { return }
        for relationship in object.runtime.entity.relationships { clear(object, relationship) }
        guard object.isInsertedStorage else {
            object.isDeletedStorage = true
            noteChange(object)
            return
        }
        if handle.recordsChanges, !object.isAwaitingAnnouncement { recordChange(of: object) }
        links.replace(object, with: nil)
        pendingDeletes.removeAll { $0 === object }
        detach(object)
    }

    /// Brings back an object that left the context (an undone insert, or a
    /// deletion saved since) as an insert under its old ID.
    private func reattach(_ object: ManagedObject) {
        object.contextHandle = handle
        registered[object.objectID] = object
        object.committed = nil
        object.batch = nil
        object.isDeletedStorage = false
        prepareAsNew(object)
    }

    /// The change masks after a restore: the step's own when no save came
    /// between, else what differs from the store now. A restored attribute of
    /// a saved object is changed when it differs from the committed value:
    /// a merge since the step may have moved that value, and the step's mask
    /// would then call a value the store does not hold unchanged.
    private func settleChanges(of target: UndoObjectState, reattached: Bool) {
        let object = target.object
        if target.saveCount == saveCount, !reattached, target.stepAttributes == nil {
            object.changedAttributes = target.changedAttributes
            object.changedRelationships = target.changedRelationships
            if object.committed != nil { compareWithCommitted(object, attributes: nil) }
        } else if target.saveCount == saveCount, !reattached, let attributes = target.stepAttributes {
            for index in object.values.indices where attributes[index] {
                object.changeMasks[attribute: index] = target.changedAttributes[index]
            }
            for index in object.toOne.indices where target.stepToOnes?[index] == true || target.toMany.keys.contains(index) {
                object.changeMasks[relationship: index] = target.changedRelationships[index]
            }
            if object.committed != nil { compareWithCommitted(object, attributes: attributes) }
        } else {
            compareWithCommitted(object, attributes: nil)
        }
        if object.hasChanges { track(object) } else { forgetChanges(of: object) }
    }

    /// Each attribute (of `attributes`; nil: all) is changed when it differs from the committed value.
    private func compareWithCommitted(_ object: ManagedObject, attributes: ChangeMask?) {
        for index in object.values.indices where attributes?[index] ?? true {
            let committedValue = object.committed.map { index < $0.values.count ? $0.values[index] : .null } ?? .null
            object.changeMasks[attribute: index] = object.values[index] != committedValue
        }
    }
}
