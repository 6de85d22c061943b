/// Inserting, deleting, refreshing, rolling back and resetting.
extension ManagedObjectContext {
    /// Inserts a new object of the entity called `name` (as the class
    /// registered for it), with the model's default values; `awakeFromInsert`
    /// runs before this returns.
    @discardableResult
    public func insertNewObject(forEntityName name: String) throws -> ManagedObject {
        checkQueue()
        guard let entity = coordinator.model.entity(named: name) else {
            throw ObjectAccessError.unknownKey(entity: "model", key: name)
        }
        return try insertObject(entityIndex: entity.index)
    }

    /// Inserts a new object of a registered subclass.
    public func insertObject<Object: ManagedObject>(_ type: Object.Type) throws -> Object {
        checkQueue()
        guard let object = try insertObject(entityIndex: entityIndex(of: type)) as? Object else {
            throw ObjectAccessError.wrongType(entity: String(describing: type), key: "class", expected: "\(type)")
        }
        return object
    }

    /// The entity a registered subclass stands for.
    func entityIndex(of type: ManagedObject.Type) throws -> Int {
        // Loops insert one class over and over: remember the last one instead of
        // taking the registry's lock for every object.
        if let cached = lastInsertedClass, cached.type == ObjectIdentifier(type) { return cached.entityIndex }
        guard let found = classes.entityIndex(of: type) else {
            throw ObjectAccessError.unknownKey(entity: "model", key: String(describing: type))
        }
        lastInsertedClass = (ObjectIdentifier(type), found)
        return found
    }

    /// `id`: a child context's insert, saved into this parent, keeps its temporary ID.
    func insertObject(entityIndex: Int, id given: ManagedObjectID? = nil, awakes: Bool = true) throws -> ManagedObject {
        let id = try newObjectID(entityIndex: entityIndex, given: given)
        let object = makeObject(id: id, entityIndex: entityIndex)
        adoptInserted(object, awakes: awakes)
        return object
    }

    /// The ID of an object about to be inserted; abstract entities have none.
    func newObjectID(entityIndex: Int, given: ManagedObjectID? = nil) throws -> ManagedObjectID {
        let entity = runtimes[entityIndex].entity
        if entity.isAbstract { throw ObjectAccessError.abstractEntity(entity.name) }
        return given ?? ManagedObjectID.temporary(store: coordinator.identifier, entityIndex: entityIndex)
    }

    /// A new object, made: its defaults, its registration as inserted, then
    /// `awakeFromInsert`.
    func adoptInserted(_ object: ManagedObject, awakes: Bool = true) {
        object.values = object.runtime.defaults
        prepareAsNew(object)
        registered[object.objectID] = object
        if handle.recordsUndo { captureInsertForUndo(object) }
        noteChange(object)
        if awakes { object.awakeFromInsert() }
    }

    /// An inserted object's relationships and flags: no destinations, empty
    /// loaded to-manys.
    func prepareAsNew(_ object: ManagedObject) {
        let runtime = object.runtime
        // Written slot by slot into the entity's shared arrays: an entity
        // without relationships then allocates nothing here. (An object whose
        // storage was released has empty arrays: it takes the shared ones first.)
        if object.toOne.count != runtime.unloadedToOne.count { object.toOne = runtime.unloadedToOne }
        for index in object.toOne.indices { object.toOne[index] = .object(nil) }
        if object.toMany.count != runtime.emptyToMany.count { object.toMany = runtime.emptyToMany }
        for index in runtime.isToMany.indices where runtime.isToMany[index] {
            let state = ToManyState()
            state.load([])
            object.toMany[index] = state
        }
        object.isFaultStorage = false
        object.isInsertedStorage = true
    }

    /// Core Data's `obtainPermanentIDs(for:)`: gives this context's unsaved
    /// inserted `objects` their permanent IDs now — keys reserved in one write
    /// transaction — so the IDs can be handed to other contexts, kept in a
    /// snapshot or put in a URI before the save, which then writes the rows
    /// under them. Objects already saved, of another context, or deleted are
    /// left alone. Until the save, another context finds no row for such an
    /// ID, as in Core Data.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        checkQueue()
        let targets = objects.filter { $0.contextHandle === handle && $0.objectID.isTemporaryID && !$0.isDeletedStorage }
        guard !targets.isEmpty else { return }
        let permanent = try coordinator.reservePermanentIDs(for: targets.map(\.objectID))
        for (object, id) in zip(targets, permanent) {
            registered[object.objectID] = nil
            registered[id] = object
            object.objectID = id
        }
    }

    /// Marks `object` for deletion; its delete rules run at the next save or
    /// `processPendingChanges()`. A never-saved object simply leaves.
    public func delete(_ object: ManagedObject) {
        checkQueue()
        guard object.contextHandle === handle, !object.isDeletedStorage else { return }
        object.fireFault()
        if handle.recordsUndo { captureForUndo(object) }
        object.isDeletedStorage = true
        noteChange(object)
        pendingDeletes.append(object)
    }

    /// Runs delete rules for pending deletions: `prepareForDeletion`, then
    /// cascade deletes destinations, nullify clears inverses; deny is checked
    /// at validation.
    func propagateDeletes() throws {
        while let object = pendingDeletes.first {
            // Read what the rules change before applying any: when the store
            // cannot be read the deletion stays pending, its rules unapplied.
            try loadMembersForDeleteRules(of: object)
            pendingDeletes.removeFirst()
            object.prepareForDeletion()
            applyDeleteRules(of: object)
        }
    }

    /// Fires `object`'s fault and loads the to-manys its cascade and nullify
    /// rules change; throws `SaveError.unfulfilledFaults` when the store
    /// cannot be read. `reloading` drops what was loaded before, so the
    /// members come from the store as it is now.
    func loadMembersForDeleteRules(of object: ManagedObject, reloading: Bool = false) throws {
        let failuresBefore = faultFailures.count
        object.fireFault()
        for relationship in coordinator.model.entities[object.entityIndex].relationships where relationship.isToMany
            && (relationship.deleteRule == .cascadeDeleteRule || relationship.deleteRule == .nullifyDeleteRule) {
            if reloading, relationship.index < object.toMany.count { object.toMany[relationship.index] = nil }
            _ = object.loadedToMany(at: relationship.index)
        }
        try throwFaultFailures(since: failuresBefore)
    }

    /// Cascade deletes destinations, nullify clears inverses; deny is checked
    /// at validation.
    func applyDeleteRules(of object: ManagedObject) {
        for relationship in coordinator.model.entities[object.entityIndex].relationships {
            switch relationship.deleteRule {
            case .cascadeDeleteRule:
                let targets = relationship.isToMany ? object.members(at: relationship.index)
                    : object.destination(at: relationship.index).map { [$0] } ?? []
                for target in targets { delete(target) }
                clear(object, relationship)
            case .nullifyDeleteRule:
                clear(object, relationship)
            case .denyDeleteRule, .noActionDeleteRule:
                break
            }
        }
    }

    func clear(_ object: ManagedObject, _ relationship: CheckedRelationship) {
        if relationship.isToMany {
            for member in object.members(at: relationship.index) { clear(member, from: object, relationship) }
        } else if object.destination(at: relationship.index) != nil {
            setToOne(of: object, at: relationship.index, to: nil)
        }
    }

    /// Removes `member` from `object`'s to-many. The store lists the member
    /// under `object`, so unless this context moved it elsewhere its row points
    /// at `object`, whatever an older snapshot of it says: the cleared key is
    /// written either way.
    func clear(_ member: ManagedObject, from object: ManagedObject, _ relationship: CheckedRelationship) {
        removeMember(member, from: object, at: relationship.index)
        if let inverse = relationship.inverseIndex, relationship.inverseIsToMany != true, !member.changeMasks[relationship: inverse] {
            setToOne(of: member, at: inverse, to: nil)
            markRelationshipChanged(member, inverse)
        }
    }

    /// Turns `object` back into a fault, discarding its changes — a pending
    /// deletion too, whose delete rules then never run — and its transient
    /// values (`mergeChanges: false`), or re-reads it keeping its changed
    /// values, its deletion and its transient values (`mergeChanges: true`).
    /// An object without changes turns into a fault either way, its transient
    /// values gone, as Core Data's does (its `refreshAllObjects()` resets a
    /// saved object's transient to its default). Inserted objects are left
    /// alone. The next `processPendingChanges()` reports it among the refreshed
    /// objects, as Core Data does (a refresh costs no write, so it is
    /// reported whether or not the context records its own changes), and a
    /// fetched-results controller places it again.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        checkQueue()
        guard object.contextHandle === handle, !object.isInsertedStorage else { return }
        refreshUnannounced(object, mergeChanges: mergeChanges, keepingUnchangedTransients: false)
        unannouncedRefreshes.insert(object)
    }

    /// `refresh(_:mergeChanges:)` for the context's own bookkeeping — merges,
    /// rollbacks, conflicts, saves — which reports its changes itself (or
    /// not at all): no refresh is recorded, and nothing is paid per object
    /// for it. Merging another save into an unchanged object that holds
    /// transient values re-reads its row rather than turn it into a fault,
    /// which would drop values the app set (`keepingUnchangedTransients`);
    /// the public refreshes fault it, as Core Data's do.
    func refreshUnannounced(_ object: ManagedObject, mergeChanges: Bool, keepingUnchangedTransients: Bool = true) {
        guard object.contextHandle === handle, !object.isInsertedStorage else { return }
        // An entity without transients never looks.
        let keepsChanges = mergeChanges && (object.hasChangedProperties || object.isDeletedStorage
            || (keepingUnchangedTransients && object.runtime.hasTransients && object.runtime.holdsTransientValues(object)))
        if !keepsChanges {
            forgetChanges(of: object)
            if object.isDeletedStorage { pendingDeletes.removeAll { $0 === object } }
            object.isDeletedStorage = false
            object.isFaultStorage = true
            object.values = []
            object.committed = nil
            object.toOne = object.runtime.unloadedToOne
            object.toMany = object.runtime.emptyToMany
            object.resetChangeFlags()
            return
        }
        guard let row = rowToMerge(for: object.objectID) else { return }
        // Changed values stay, and transient ones (the row holds them as nil).
        var kept = object.changedAttributes
        for index in object.runtime.transientAttributes { kept[index] = true }
        for index in object.values.indices where !kept[index] { object.values[index] = row.values[index] }
        for index in object.toOne.indices where !object.changeMasks[relationship: index] {
            object.toOne[index] = .id(index < row.toOne.count ? row.toOne[index] : nil)
        }
        object.committed = row
        rebaseToManys(of: object)
    }

    /// The row a merging refresh lays under an object's changes: a child's
    /// comes from its parent chain, as its faults do (a store row would undo
    /// what the parent holds unsaved), else the store's; nil when there is
    /// none (the parent deleted it, the store lost it).
    private func rowToMerge(for id: ManagedObjectID) -> RowSnapshot? {
        if let parent {
            switch parent.performAndWait({ parent.rowForChild(id) }) {
            case .row(let row): return row
            case .deleted: return nil
            case .unknown: break
            }
        }
        return (try? coordinator.row(for: id)) ?? nil
    }

    /// After the store's row replaced `object`'s baseline: its unchanged
    /// to-manys load again; a changed one keeps this context's additions and
    /// removals (and order) over the members the store lists now, as Core
    /// Data's merge does.
    func rebaseToManys(of object: ManagedObject) {
        for index in object.toMany.indices {
            guard object.changeMasks[relationship: index] else {
                object.toMany[index] = nil
                continue
            }
            guard let state = object.toMany[index], let order = state.members, let rebased = state.rebased() else { continue }
            object.toMany[index] = rebased
            if object.runtime.entity.relationships[index].isOrdered, let fresh = object.loadedToMany(at: index) {
                fresh.reorder(ToManyState.order(fresh.members ?? [], preferring: order))
            }
        }
    }

    /// Refreshes every registered object keeping its unsaved changes
    /// (`refresh(_:mergeChanges: true)`): unchanged objects turn back into
    /// faults, deletions stay pending. It reports what it did at once, the
    /// objects among the refreshed ones, whether or not the context records
    /// its own changes (as a merge reports its refreshes).
    public func refreshAllObjects() {
        checkQueue()
        for object in registered.values { refreshUnannounced(object, mergeChanges: true, keepingUnchangedTransients: false) }
        for object in registered.values where !object.isInsertedStorage { unannouncedRefreshes.insert(object) }
        announceUnsavedChanges()
    }

    /// Discards every unsaved change: inserted objects leave, deleted ones come
    /// back, updated ones return to their committed values.
    public func rollback() {
        checkQueue()
        discardUndo()
        recordAllChanges()
        defer { announceUnsavedChanges() }
        for object in changedInOrder {
            if object.isInsertedStorage {
                registered[object.objectID] = nil
                object.isDeletedStorage = true
                object.releaseStorage()
                object.managedObjectContext = nil
            } else {
                refreshUnannounced(object, mergeChanges: false)
            }
        }
        forgetAllChanges()
        forgetRefusals()
        pendingDeletes.removeAll()
        links.removeAll()
        // To-many sides that recorded pending moves may be stale: reload on access.
        for object in registered.values { for index in object.toMany.indices { object.toMany[index] = nil } }
    }

    /// Refused writes and unreadable faults wait for the next save to throw
    /// them; the changes they spoilt are gone once rolled back or reset, so
    /// they go too, and never fail a later, unrelated save.
    private func forgetRefusals() {
        refusedAccesses.removeAll()
        faultFailures.removeAll()
    }

    /// Forgets every object: the context is as new. Posts the
    /// objects-did-change notification with `invalidatedAllObjects`, as Core
    /// Data's posts `NSInvalidatedAllObjectsKey`.
    public func reset() {
        checkQueue()
        discardUndo()
        for object in registered.values {
            object.releaseStorage()
            object.isFaultStorage = true
            object.managedObjectContext = nil
        }
        registered.removeAll()
        for object in unannounced { object.isAwaitingAnnouncement = false }
        unannounced.removeAll()
        unannouncedRefreshes.removeAll()
        forgetAllChanges()
        forgetRefusals()
        pendingDeletes.removeAll()
        links.removeAll()
        transformedValues.removeAll()
        advanceQueryGeneration()
        announceReset()
    }
}
