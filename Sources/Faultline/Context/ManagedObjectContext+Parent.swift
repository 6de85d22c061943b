import Foundation

/// Child contexts: Core Data's `parent`. A child reads through its parent —
/// its faults take the parent's current values, its fetches see the parent's
/// unsaved inserts, changes and deletions (and those of the parent's parent) —
/// and its `save()` pushes its changes into the parent, writing nothing to the
/// store; the parent's save writes them. Dropping, resetting or rolling back a
/// child leaves the parent as it was.
///
/// Design note. The parent's objects stay on the parent's queue: a child asks
/// it through `performAndWait`, for one row (a fault), one relationship's
/// members, or the IDs its pending changes touch (a fetch), and pushes a save
/// through the parent's own setters — so the parent tracks, announces and
/// keeps inverses of the pushed changes as of any other. An insert keeps its
/// temporary ID in the parent, as in Core Data.
extension ManagedObjectContext {
    /// A new context, on a queue of its own, whose parent is this context.
    public func newChildContext(name: String? = "child") -> ManagedObjectContext {
        hasChildren.store(true, ordering: .relaxed)
        let child = ManagedObjectContext(coordinator: coordinator, classes: classes, queue: DispatchQueue(label: "faultline.child"),
                                         name: name, parent: self)
        child.inheritGeneration(generation.adopt(child))
        return child
    }

    /// What a parent knows of an object: nothing (read the store), that it is
    /// deleted, or its current row.
    enum ParentRow {
        case unknown
        case deleted
        case row(RowSnapshot)
    }

    /// On the parent's queue: the object's current state here, else what this
    /// context's own parent knows.
    func rowForChild(_ id: ManagedObjectID) -> ParentRow {
        if let object = registered[id] {
            if object.isDeletedStorage { return .deleted }
            if !object.isFaultStorage { return .row(currentSnapshot(of: object)) }
        }
        guard let parent else { return .unknown }
        return parent.performAndWait { parent.rowForChild(id) }
    }

    /// The object's state now as a row snapshot, with its committed version.
    /// Transient values stay with the object: a child reads the parent's
    /// persistent values only (its transients start nil, as after a fetch),
    /// and a child's baseline after saving into its parent holds none.
    private func currentSnapshot(of object: ManagedObject) -> RowSnapshot {
        var arena = RowArena<ManagedObjectID?>()
        return RowSnapshot(entityIndex: object.entityIndex, version: object.committed?.version ?? 1,
                           values: object.runtime.persistent(object.values),
                           toOne: currentToOnes(of: object, in: &arena))
    }

    /// A fault filled from the parent chain: true when it was, false when the
    /// object is deleted there, nil when no ancestor holds it (read the store).
    func fulfillFromParent(_ object: ManagedObject) -> Bool? {
        guard let parent else { return nil }
        let id = object.objectID
        switch parent.performAndWait({ parent.rowForChild(id) }) {
        case .unknown: return nil
        case .deleted: return false
        case .row(let snapshot):
            materialize(object, from: snapshot)
            return true
        }
    }

    /// On the parent's queue: the members of `id`'s to-many at `index` here,
    /// when this context (or its parent) holds the object.
    func membersForChild(_ id: ManagedObjectID, at index: Int) -> [ManagedObjectID]? {
        if let object = registered[id], !object.isFaultStorage {
            return object.members(at: index).map(\.objectID)
        }
        guard let parent else { return nil }
        return parent.performAndWait { parent.membersForChild(id, at: index) }
    }

    /// A to-many's members as the parent chain holds them, or nil (read the store).
    func parentMembers(of id: ManagedObjectID, at index: Int) -> [ManagedObjectID]? {
        guard let parent else { return nil }
        return parent.performAndWait { parent.membersForChild(id, at: index) }
    }

    /// On the parent's queue: the objects of `hierarchy` this context and its
    /// ancestors changed (inserted or updated) and deleted, unsaved.
    func pendingForChild(in hierarchy: Set<Int>) -> (changed: [ManagedObjectID], deleted: Set<ManagedObjectID>) {
        var pending: (changed: [ManagedObjectID], deleted: Set<ManagedObjectID>) = ([], [])
        if let parent { pending = parent.performAndWait { parent.pendingForChild(in: hierarchy) } }
        for object in changedInOrder where hierarchy.contains(object.entityIndex) {
            if object.isDeletedStorage {
                pending.deleted.insert(object.objectID)
            } else {
                pending.changed.append(object.objectID)
                pending.deleted.remove(object.objectID)
            }
        }
        return pending
    }

    /// A child's save: its changes pushed into the parent through the parent's
    /// setters (inserts keep their temporary IDs), then taken as this
    /// context's new baseline. Nothing reaches the store.
    func saveIntoParent(_ parent: ManagedObjectContext) throws {
        try resolveParentConflicts(parent)
        let objects = changedInOrder
        let inserted = objects.filter { $0.isInsertedStorage && !$0.isDeletedStorage }
        let deleted = objects.filter { $0.isDeletedStorage && !$0.isInsertedStorage }
        let discarded = objects.filter { $0.isDeletedStorage && $0.isInsertedStorage }
        let updated = objects.filter { !$0.isInsertedStorage && !$0.isDeletedStorage && $0.hasChangedProperties }
        try parent.performAndWait {
            for object in inserted where parent.registeredObject(for: object.objectID) == nil {
                _ = try parent.insertObject(entityIndex: object.entityIndex, id: object.objectID, awakes: false)
            }
            func counterpart(_ object: ManagedObject) -> ManagedObject { parent.object(owned: object.objectID) }
            for object in inserted + updated {
                let target = counterpart(object)
                let isNew = object.isInsertedStorage
                for index in object.values.indices where isNew || object.changeMasks[attribute: index] {
                    target.setAttributeValue(object.values[index], at: index)
                }
                let relationships = object.runtime.entity.relationships
                for (index, relationship) in relationships.enumerated() where isNew || object.changeMasks[relationship: index] {
                    guard relationship.isToMany else {
                        try target.setDestination(object.destination(at: index).map(counterpart), at: index)
                        continue
                    }
                    switch coordinator.plans[object.entityIndex].writes.membership[index] {
                    // Its to-one inverse carries the change, without loading this side;
                    // a many-to-many's join rows carry it (below): both combine with
                    // what the parent changed meanwhile instead of replacing it.
                    case .inRows, .joinRow: continue
                    case .hiddenKey: try target.replaceMembers(object.members(at: index).map(counterpart), at: index)
                    }
                }
            }
            try pushJoinRows(into: parent, counterpart: counterpart)
            try pushOrder(of: inserted + updated, into: parent, counterpart: counterpart)
            for object in deleted { parent.delete(counterpart(object)) }
        }
        finishSaveIntoParent(inserted: inserted, updated: updated, deleted: deleted + discarded)
    }

    /// This context's many-to-many additions and removals, applied to the
    /// parent's members as they are now: a pair the child did not touch keeps
    /// whatever the parent did to it. Pairs with an object deleted here are
    /// left to the deletion.
    private func pushJoinRows(into parent: ManagedObjectContext, counterpart: (ManagedObject) -> ManagedObject) throws {
        for (rows, added) in [(links.joinDeletes.values, false), (links.joinInserts.values, true)] {
            for row in rows where !row.first.isDeletedStorage && !row.second.isDeletedStorage {
                guard case .joinRow(_, let sourceFirst, _, _) = coordinator.plans[row.entityIndex].writes.membership[row.relationship]
                else { continue }
                let (source, member) = sourceFirst ? (row.first, row.second) : (row.second, row.first)
                if added {
                    parent.addMember(counterpart(member), to: counterpart(source), at: row.relationship)
                } else {
                    parent.removeMember(counterpart(member), from: counterpart(source), at: row.relationship)
                }
            }
        }
    }

    /// An ordered to-many this context changed takes its order here in the
    /// parent, once the members are pushed: the child's members first, in the
    /// child's order, then those only the parent has, in the parent's.
    private func pushOrder(
        of objects: [ManagedObject], into parent: ManagedObjectContext, counterpart: (ManagedObject) -> ManagedObject
    ) throws {
        for object in objects {
            for (index, relationship) in object.runtime.entity.relationships.enumerated()
            where relationship.isOrdered && (object.isInsertedStorage || object.changeMasks[relationship: index]) {
                guard let order = object.toManyState(at: index)?.members else { continue }
                let target = counterpart(object)
                try target.replaceMembers(
                    ToManyState.order(target.members(at: index), preferring: order.map(counterpart)), at: index)
            }
        }
    }

    /// The pushed objects' values become this context's baseline; deleted ones
    /// leave; `didSave` runs and the did-save notification goes out, as after
    /// a save to the store.
    private func finishSaveIntoParent(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) {
        saveCount += 1
        for object in inserted + updated {
            object.committed = currentSnapshot(of: object)
            object.isInsertedStorage = false
            object.resetChangeFlags()
        }
        forgetAllChanges()
        links.removeAll()
        pendingDeletes.removeAll()
        for object in inserted + updated + deleted { object.didSave() }
        for object in deleted { detach(object) }
        let changes = StoreChanges(
            source: ObjectIdentifier(self), inserted: inserted.map(\.objectID), updated: updated.map(\.objectID),
            deleted: Set(deleted.map(\.objectID)))
        NotificationCenter.default.post(name: .managedObjectContextDidSave, object: self,
                                        userInfo: [ContextDidSave.userInfoKey: ContextDidSave(changes)])
        if let parent {
            NotificationCenter.default.post(name: Self.childDidSaveIntoParent, object: parent,
                                            userInfo: [ContextDidSave.userInfoKey: ContextDidSave(changes)])
        }
    }

    /// A child follows its siblings' saves into its parent and its ancestors'
    /// store saves (set up when it is made).
    func followAncestors() {
        followSiblingSaves()
        adoptAncestorsPermanentIDs()
    }

    /// Posted, with the parent as its object, when a child saves into it.
    static let childDidSaveIntoParent = Notification.Name("FaultlineChildDidSaveIntoParent")

    /// A child that merges automatically merges what its siblings save into
    /// their parent, and what the parent saves into its own parent when it is
    /// a child too (a store save reaches it as any store commit does): Core
    /// Data's child follows its parent's did-save whatever the parent saves
    /// to. Their objects' new values are the parent's now, so its unchanged
    /// copies turn back into faults that the parent fills. The saves wait in
    /// its inbox with the store's commits, in the order they came, and a
    /// burst of them is one merge and one announcement. A block per save
    /// made n live siblings saving once each queue n(n−1) merges, each posting,
    /// and under load the workers running them piled up on the notification
    /// center's lock, so Dispatch kept adding threads.
    private func followSiblingSaves() {
        siblingSaves = mergeSaves(named: Self.childDidSaveIntoParent)
        guard parent?.parent != nil else { return }
        parentSaves = mergeSaves(named: .managedObjectContextDidSave)
    }

    /// Queues for merging what each `name` notification the parent posts
    /// carries, but for this context's own save or an empty one.
    private func mergeSaves(named name: Notification.Name) -> NSObjectProtocol {
        NotificationCenter.default.addObserver(forName: name, object: parent, queue: nil) { [weak self] note in
            guard let self, let saved = note.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave,
                  saved.changes.source != ObjectIdentifier(self), !saved.changes.isEmpty else { return }
            self.queueMerge(of: saved.changes)
        }
    }

    /// Objects a child pushed into its parent keep their temporary IDs there
    /// until the store save at the top of the chain gives them permanent ones;
    /// the child takes the same, on its own queue, so its next save still finds
    /// them in the parent.
    private func adoptAncestorsPermanentIDs() {
        var ancestor = parent
        while let context = ancestor {
            ancestorSaves.append(NotificationCenter.default.addObserver(
                forName: .managedObjectContextDidSave, object: context, queue: nil
            ) { [weak self] note in
                guard let self, let saved = note.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave,
                      !saved.promoted.isEmpty else { return }
                self.queue.async { [weak self] in self?.adoptPermanentIDs(saved.promoted) }
            })
            ancestor = context.parent
        }
    }

    func adoptPermanentIDs(_ promoted: PromotedIDs) {
        promoted.forEach { temporary, permanent in
            guard let object = registered[temporary], !object.isInsertedStorage else { return }
            registered[temporary] = nil
            registered[permanent] = object
            object.objectID = permanent
        }
    }
}
