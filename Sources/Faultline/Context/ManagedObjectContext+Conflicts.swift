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
            takeStoreToOnes(object, store: row, committed: committed)
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

    /// Store trump for to-ones: one this context changed and the store
    /// changed too takes the store's destination, through the relationship
    /// engine so the inverses follow.
    private func takeStoreToOnes(_ object: ManagedObject, store row: RowSnapshot, committed: RowSnapshot?) {
        for relationship in object.runtime.entity.relationships
        where !relationship.isToMany && !relationship.isTransient && object.changeMasks[relationship: relationship.index] {
            let index = relationship.index
            let stored = index < row.toOne.count ? row.toOne[index] : nil
            let storeChanged = committed.map { index >= $0.toOne.count || $0.toOne[index] != stored } ?? true
            if storeChanged { setToOne(of: object, at: index, to: stored.map { self.object(owned: $0) }) }
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
            mergeDuplicate(object, into: target)
        }
        replace(object, with: target)
        return true
    }

    /// Object trump and overwrite: the duplicate's values go to the object
    /// kept — the attributes and to-ones it set, every one under overwrite —
    /// the to-ones through the relationship engine, so their inverses follow.
    private func mergeDuplicate(_ object: ManagedObject, into target: ManagedObject) {
        guard target.entityIndex == object.entityIndex else { return }
        let entity = coordinator.model.entities[object.entityIndex]
        for attribute in entity.attributes where !attribute.isDerived {
            let value = object.values[attribute.index]
            if mergePolicy == .overwrite || value != .null { target.setAttributeValue(value, at: attribute.index) }
        }
        for relationship in entity.relationships where !relationship.isToMany && !relationship.isTransient {
            let destination = object.destination(at: relationship.index)
            if mergePolicy == .overwrite || destination != nil { setToOne(of: target, at: relationship.index, to: destination) }
        }
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

    /// Points every reference to `object` at `replacement`, then drops
    /// `object`. A replacement (the object a uniqueness merge keeps) gathers
    /// `object`'s to-many members, in order, and keeps its own to-ones: a
    /// reference through a to-one's inverse follows it only where the
    /// replacement's to-one names the referrer (`mergeDuplicate` has set it
    /// under object trump and overwrite), so both sides always agree.
    func replace(_ object: ManagedObject, with replacement: ManagedObject?) {
        if let replacement, replacement.entityIndex == object.entityIndex { moveMembers(of: object, to: replacement) }
        for other in registered.values where other !== object && !other.isFaultStorage {
            let inverses = other.runtime.inverses
            for index in other.toOne.indices {
                guard case .object(let destination?) = other.toOne[index], destination === object else { continue }
                let kept = replacement.flatMap { joins($0, inverseOf: inverses[index], from: other) ? $0 : nil }
                other.toOne[index] = .object(kept)
                markRelationshipChanged(other, index)
            }
            for index in other.toMany.indices {
                guard let state = other.toMany[index], state.contains(object) || state.isPendingAdd(object)
                else { continue }
                state.remove(object)
                if let replacement, joins(replacement, inverseOf: inverses[index], from: other) { state.add(replacement) }
                markRelationshipChanged(other, index)
            }
        }
        links.replace(object, with: replacement)
        detach(object)
    }

    /// `object`'s to-many members, moved to `replacement` in their order
    /// through the relationship engine (inverses, join rows, order keys).
    private func moveMembers(of object: ManagedObject, to replacement: ManagedObject) {
        for relationship in coordinator.model.entities[object.entityIndex].relationships
        where relationship.isToMany && !relationship.isTransient {
            for member in object.members(at: relationship.index) where member !== replacement {
                addMember(member, to: replacement, at: relationship.index)
            }
        }
    }

    /// Whether `replacement` takes `object`'s place on the other side of
    /// `inverse` (the inverse of a relationship of `other`): always when the
    /// inverse is a to-many, which gains `other`; for a to-one, only when it
    /// already names `other`.
    private func joins(_ replacement: ManagedObject, inverseOf inverse: EntityRuntime.Inverse?, from other: ManagedObject) -> Bool {
        guard let inverse else { return true }
        guard inverse.isToMany else { return replacement.destination(at: inverse.index) === other }
        if replacement.toManyState(at: inverse.index)?.add(other) == true { markRelationshipChanged(replacement, inverse.index) }
        return true
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
                // A stored object is the one kept (and named existing), whichever
                // the context changed first; of two inserts, the earlier.
                let (duplicate, kept) = first.isInsertedStorage && !object.isInsertedStorage ? (first, object) : (object, first)
                if mergePolicy == .error || !duplicate.isInsertedStorage {
                    conflicts.append(.uniqueness(duplicate.objectID, existing: kept.objectID, constraint: constraint.names))
                } else {
                    if mergePolicy == .mergeByPropertyObjectTrump || mergePolicy == .overwrite { mergeDuplicate(duplicate, into: kept) }
                    replace(duplicate, with: kept)
                    if duplicate === object { break }
                    // The earlier insert gave way: its other constraints' values now lead to the object kept.
                    for (other, holder) in seen where holder === duplicate { seen[other] = kept }
                }
            }
        }
        if !conflicts.isEmpty { throw SaveError.conflicts(conflicts) }
    }
}
