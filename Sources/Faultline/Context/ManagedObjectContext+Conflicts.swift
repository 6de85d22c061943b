/// Resolving save conflicts by merge policy, with Core Data's semantics.
///
/// Where Faultline differs, deliberately: a uniqueness conflict of an object
/// that already existed (its constrained attribute changed to a stored value)
/// is resolved by store trump and rollback (the object's constrained values
/// revert) but not by object trump or overwrite, which would need to delete
/// the other row; those fail with the conflict.
extension ManagedObjectContext {
    func resolve(_ conflicts: [SaveConflict]) throws {
        var unresolved: [SaveConflict] = []
        var deletionsStanding: [ManagedObject] = []
        for conflict in conflicts {
            switch conflict {
            case let .optimisticLocking(id, _, storeVersion):
                guard let object = registered[id] else { continue }
                guard storeVersion != nil, let row = try coordinator.row(for: id) else {
                    // The row is gone: the store's deletion wins under every
                    // policy, and nothing saved may point at it any more.
                    replace(object, with: nil)
                    continue
                }
                resolveVersionConflict(object, store: row)
                if object.isDeletedStorage, mergePolicy != .error { deletionsStanding.append(object) }
            case let .uniqueness(id, existing, _):
                guard let object = registered[id] else { continue }
                if !resolveUniquenessConflict(object, existing: existing) { unresolved.append(conflict) }
            case .parentContext:
                // Resolved before a child's save pushes anything (ManagedObjectContext+ParentConflicts.swift).
                unresolved.append(conflict)
            }
        }
        if !unresolved.isEmpty { throw SaveError.conflicts(unresolved) }
        // A deleted object whose row changed since it was read (another
        // context added members to its to-manys) and whose deletion the
        // policy lets stand: its rules ran on the members this context knew,
        // so they run again on the members the store holds now. Without it
        // the new members would point at a row that no longer exists.
        for object in deletionsStanding {
            try loadMembersForDeleteRules(of: object, reloading: true)
            applyDeleteRules(of: object)
        }
        try propagateDeletes()
    }

    func resolveVersionConflict(_ object: ManagedObject, store row: RowSnapshot) {
        let committed = object.committed
        switch mergePolicy {
        case .error:
            return
        case .rollback:
            refreshUnannounced(object, mergeChanges: false)
            return
        case .mergeByPropertyStoreTrump:
            for index in object.values.indices where object.changeMasks[attribute: index] {
                let storeChanged = committed.map { $0.values[index] != row.values[index] } ?? true
                if storeChanged { object.values[index] = row.values[index] }
            }
        case .mergeByPropertyObjectTrump, .overwrite:
            break
        }
        for index in object.values.indices {
            let keepsOwn = object.changeMasks[attribute: index] || mergePolicy == .overwrite
            if !keepsOwn { object.values[index] = row.values[index] }
        }
        object.pinCommittedToOnes()
        object.committed = row
        rebaseToManys(of: object)
        recomputeChangeFlags(object, against: row)
        if object.isDeletedStorage, mergePolicy == .mergeByPropertyStoreTrump {
            refreshUnannounced(object, mergeChanges: false)
        }
    }

    private func recomputeChangeFlags(_ object: ManagedObject, against row: RowSnapshot) {
        for index in object.values.indices {
            object.changeMasks[attribute: index] = object.values[index] != row.values[index]
        }
        // Even with no column left to change, the version must move past the store's.
        noteChange(object)
    }

    /// Returns false when the policy does not resolve the conflict.
    private func resolveUniquenessConflict(_ object: ManagedObject, existing id: ManagedObjectID) -> Bool {
        if !object.isInsertedStorage {
            guard mergePolicy == .mergeByPropertyStoreTrump || mergePolicy == .rollback else { return false }
            guard let committed = object.committed else { return false }
            let entity = coordinator.model.entities[object.entityIndex]
            for constraint in entity.uniquenessConstraints {
                for case .attribute(let index) in constraint where object.changeMasks[attribute: index] {
                    object.values[index] = committed.values[index]
                    object.changeMasks[attribute: index] = false
                }
            }
            return true
        }
        let target = existing(for: id)
        switch mergePolicy {
        case .error:
            return false
        case .mergeByPropertyStoreTrump, .rollback:
            break
        case .mergeByPropertyObjectTrump, .overwrite:
            guard let target else { return false }
            let entity = coordinator.model.entities[object.entityIndex]
            for attribute in entity.attributes where !attribute.isDerived && target.entityIndex == object.entityIndex {
                let value = object.values[attribute.index]
                if mergePolicy == .overwrite || value != .null { target.setAttributeValue(value, at: attribute.index) }
            }
        }
        replace(object, with: target)
        return true
    }

    /// The object for a conflicting row or unsaved duplicate.
    private func existing(for id: ManagedObjectID) -> ManagedObject? {
        if let object = registered[id] {
            object.fireFault()
            return object.isFaultStorage ? nil : object
        }
        return try? existingObject(with: id)
    }

    /// Changed objects that are still faults once fired lost their rows to
    /// another context (a fault changes only through an inverse, which marks it
    /// without reading it). Under `.error` that is a conflict, the context
    /// keeping its changes; under any other policy the store's deletion wins, as
    /// for every vanished row, and references to the object are cleared.
    func resolveVanishedFaults() throws {
        let vanished = changedInOrder.filter { object in
            object.isFaultStorage && !object.isInsertedStorage && !object.isDeletedStorage && !fulfill(object)
        }
        guard !vanished.isEmpty else { return }
        if mergePolicy == .error {
            throw SaveError.conflicts(vanished.map { .optimisticLocking($0.objectID, expectedVersion: 0, storeVersion: nil) })
        }
        for object in vanished { replace(object, with: nil) }
    }

    /// Points every reference to `object` at `replacement`, then drops `object`.
    func replace(_ object: ManagedObject, with replacement: ManagedObject?) {
        for other in registered.values where other !== object && !other.isFaultStorage {
            for index in other.toOne.indices {
                if case .object(let destination?) = other.toOne[index], destination === object {
                    other.toOne[index] = .object(replacement)
                    markRelationshipChanged(other, index)
                }
            }
            for index in other.toMany.indices {
                guard let state = other.toMany[index], state.contains(object) || state.isPendingAdd(object)
                else { continue }
                state.remove(object)
                if let replacement { state.add(replacement) }
                markRelationshipChanged(other, index)
            }
        }
        links.replace(object, with: replacement)
        detach(object)
    }

    /// Uniqueness among the objects of this save: the first inserted keeps the
    /// values; under `.error` a duplicate fails the save.
    func resolveDuplicatesWithinContext() throws {
        struct Key: Hashable {
            let signature: Int
            let values: [AttributeValue]
        }
        var seen: [Key: ManagedObject] = [:]
        var conflicts: [SaveConflict] = []
        for object in changedInOrder where !object.isDeletedStorage && (object.isInsertedStorage || object.hasChangedProperties) {
            // Most entities declare no constraint: nothing to gather for them (as `buildRequest` skips them).
            guard object.runtime.hasConstraints else { continue }
            for check in uniquenessChecks(for: object, onlyChanged: false) where !check.values.contains(.null) {
                let constraint = coordinator.plans[object.entityIndex].writes.uniqueness[check.constraint]
                let key = Key(signature: constraint.signature, values: check.values)
                guard let first = seen[key] else {
                    seen[key] = object
                    continue
                }
                if mergePolicy == .error || !object.isInsertedStorage {
                    conflicts.append(.uniqueness(object.objectID, existing: first.objectID, constraint: constraint.names))
                } else {
                    if mergePolicy == .mergeByPropertyObjectTrump || mergePolicy == .overwrite {
                        let entity = coordinator.model.entities[object.entityIndex]
                        for attribute in entity.attributes where !attribute.isDerived && first.entityIndex == object.entityIndex {
                            let value = object.values[attribute.index]
                            if mergePolicy == .overwrite || value != .null { first.setAttributeValue(value, at: attribute.index) }
                        }
                    }
                    replace(object, with: first)
                    break
                }
            }
        }
        if !conflicts.isEmpty { throw SaveError.conflicts(conflicts) }
    }
}
