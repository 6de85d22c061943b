import Foundation

/// The save pipeline, in Core Data's order: delete rules and
/// `prepareForDeletion`; the `willSave` loop; validation of every object,
/// collected into one error; then one SQL transaction (key reservation,
/// inserts, updates of changed columns with version checks, deletes, join
/// rows); derived attributes re-read; `didSave`; other contexts told.
/// A failed save leaves the store unchanged and the context holding its changes.
extension ManagedObjectContext {
    /// The most `willSave` passes before a save gives up.
    static let willSavePassLimit = 10

    /// Saves every change to the store.
    public func save() throws {
        checkQueue()
        guard !isSaving else { throw SaveError.recursiveSave }
        isSaving = true
        defer { isSaving = false }
        if !refusedAccesses.isEmpty {
            defer { refusedAccesses = [] }
            throw SaveError.refusedAccess(refusedAccesses)
        }
        // First, as Core Data's: what an observer changes is saved with the rest.
        NotificationCenter.default.post(name: .managedObjectContextWillSave, object: self)
        try throwFaultFailures()
        try propagateDeletes()
        registerPendingUndo()
        announceUnsavedChanges()
        guard hasChanges else { return announceEmptySave() }
        try resolveVanishedFaults()
        try runWillSave()
        try propagateDeletes()
        let issues = validate()
        if !issues.isEmpty { throw SaveError.validation(issues) }
        // What willSave and validation read must have been read whole.
        try throwFaultFailures()
        announceUnsavedChanges()
        if let parent { return try saveIntoParent(parent) }
        var attempts = 0
        while true {
            try resolveDuplicatesWithinContext()
            let (request, saved) = buildRequest()
            // Only transient values changed (`SavedObjects.unwritten`): no
            // transaction to open, as Core Data writes nothing for them.
            if request.isEmpty {
                finish(SaveResult(), saved: saved, request: request)
                saveBuffers.keep(consume request, consume saved)
                return
            }
            switch try coordinator.write(request, source: ObjectIdentifier(self)) {
            case .success(let result):
                advanceQueryGeneration()
                finish(consume result, saved: saved, request: request)
                saveBuffers.keep(consume request, consume saved)
                return
            case .failure(let list):
                attempts += 1
                guard mergePolicy != .error, attempts <= Self.conflictResolutionAttempts else {
                    throw SaveError.conflicts(list.conflicts)
                }
                try resolve(list.conflicts)
            }
        }
    }

    /// A save with nothing to save posts the did-save notification, with
    /// nothing inserted, updated or deleted, as Core Data's does (observers
    /// waiting for a save hear of it), and does nothing else: no statement,
    /// no save counted, no query generation advanced, nothing published to
    /// other contexts nor, from a child, to its parent or siblings.
    private func announceEmptySave() {
        didSaveUserInfo[ContextDidSave.userInfoKey] = ContextDidSave(StoreChanges(source: ObjectIdentifier(self)))
        NotificationCenter.default.post(name: .managedObjectContextDidSave, object: self, userInfo: didSaveUserInfo)
        didSaveUserInfo.removeAll(keepingCapacity: true)
    }

    /// How many times a merge policy resolves conflicts before the save gives
    /// up. Resolution happens between write transactions, so each new
    /// conflict is another writer's commit landing in between: eight threads
    /// saving one row saw three in a row about once in 20,000 saves, which
    /// the old limit of three turned into a thrown conflict under object trump.
    static let conflictResolutionAttempts = 32

    private func runWillSave() throws {
        var passes = 0
        while true {
            let before = mutations
            // Core Data calls it for every object the save writes, deleted ones
            // included (`isDeleted` is true there); inserted-then-deleted ones just leave.
            for object in changedInOrder where !(object.isDeletedStorage && object.isInsertedStorage) { object.willSave() }
            if mutations == before { return }
            passes += 1
            if passes >= Self.willSavePassLimit { throw SaveError.willSaveDidNotSettle(passes: passes) }
        }
    }

    /// The lists a save builds (the request's inserts and updates, the saved
    /// objects' inserted and updated), kept between small saves: a save of one
    /// object otherwise allocated four arrays of one element and freed them.
    struct SaveBuffers {
        private var inserts: [SaveRequest.Insert] = []
        private var updates: [SaveRequest.Update] = []
        private var inserted: [ManagedObject] = []
        private var updated: [ManagedObject] = []

        /// Moves the kept lists into `request` and `saved` (which must be
        /// empty), so that appending to them finds their storage unique.
        mutating func lend(to request: inout SaveRequest, _ saved: inout SavedObjects) {
            swap(&request.inserts, &inserts)
            swap(&request.updates, &updates)
            swap(&saved.inserted, &inserted)
            swap(&saved.updated, &updated)
        }

        /// Keeps the lists of a finished save, emptied, when they are small.
        mutating func keep(_ request: consuming SaveRequest, _ saved: consuming SavedObjects) {
            func emptied<Element>(_ list: inout [Element]) -> [Element] {
                list.removeAll(keepingCapacity: ManagedObjectContext.keepsForNextSave(list.count))
                return list
            }
            inserts = emptied(&request.inserts)
            updates = emptied(&request.updates)
            inserted = emptied(&saved.inserted)
            updated = emptied(&saved.updated)
        }
    }

    /// The objects a save writes, split by what it does to them.
    struct SavedObjects {
        var inserted: [ManagedObject] = []
        var updated: [ManagedObject] = []
        var deleted: [ManagedObject] = []
        /// Inserted and deleted before any save: they simply leave.
        var discarded: [ManagedObject] = []
        /// Saved objects whose only changes are to transient properties: no
        /// row is written and no version bumped, their changes are just
        /// taken as saved (their transient values stay).
        var unwritten: [ManagedObject] = []
    }

    /// The object's to-one destinations now, as a window of `arena`: what a
    /// snapshot of its current state holds (nil at to-many indexes).
    @inline(__always)
    func currentToOnes(of object: ManagedObject, in arena: inout RowArena<ManagedObjectID?>) -> ToOneKeys {
        if let shared = object.runtime.toManyOnlyToOnes { return shared }
        let isToMany = object.runtime.isToMany
        return arena.window(isToMany.count) { isToMany[$0] ? nil : toOneID(object, $0) }
    }

    /// An updated row's to-ones as the store holds them after the update:
    /// the object's where the update writes them, the committed snapshot's
    /// elsewhere. They differ after a version conflict, where an unchanged
    /// to-one keeps its in-memory destination and the store keeps its own;
    /// the row cache must hold the store's.
    private func updatedToOnes(of object: ManagedObject, in arena: inout RowArena<ManagedObjectID?>) -> ToOneKeys {
        guard object.committed != nil else { return currentToOnes(of: object, in: &arena) }
        if let shared = object.runtime.toManyOnlyToOnes { return shared }
        let isToMany = object.runtime.isToMany
        return arena.window(isToMany.count) { index in
            if isToMany[index] { return nil }
            return object.changeMasks[relationship: index] ? toOneID(object, index) : object.committedDestination(at: index)
        }
    }

    func toOneID(_ object: ManagedObject, _ index: Int) -> ManagedObjectID? {
        switch object.toOne[index] {
        case .committed: return object.committedDestination(at: index)
        case .id(let id): return id
        case .object(let destination): return destination?.objectID
        }
    }

    /// The request of this save and the objects it writes, built by
    /// `fill(_:_:)`: returned from the function that filled them, they were
    /// copied whole (see `PersistentStoreCoordinator.perform`).
    func buildRequest() -> (SaveRequest, SavedObjects) {
        var request = SaveRequest()
        var saved = SavedObjects()
        fill(&request, &saved)
        return (request, saved)
    }

    private func fill(_ request: inout SaveRequest, _ saved: inout SavedObjects) {
        request.sharesPromotions = hasChildren.load(ordering: .relaxed)
        let recordsHistory = coordinator.history != nil
        if recordsHistory {
            request.author = transactionAuthor
            request.contextName = name
        }
        saveBuffers.lend(to: &request, &saved)
        // Sized for the inserts up front: grown by doubling, the two arrays
        // allocated and copied about twice their final size, in fresh pages.
        request.inserts.reserveCapacity(registered.unsavedCount)
        saved.inserted.reserveCapacity(registered.unsavedCount)
        var toOnes = RowArena<ManagedObjectID?>()
        for object in changedInOrder {
            let runtime = object.runtime
            if object.isInsertedStorage && object.isDeletedStorage {
                saved.discarded.append(object)
            } else if object.isInsertedStorage {
                saved.inserted.append(object)
                request.inserts.append(SaveRequest.Insert(
                    id: object.objectID, values: runtime.persistent(object.values),
                    toOne: currentToOnes(of: object, in: &toOnes)))
                if runtime.hasConstraints { request.uniquenessChecks += uniquenessChecks(for: object, onlyChanged: false) }
            } else if object.isDeletedStorage {
                saved.deleted.append(object)
                request.deletes.append(SaveRequest.Delete(id: object.objectID, version: object.committed?.version ?? 1))
            } else if object.hasChangedProperties {
                let attributes = writtenAttributes(of: object)
                if runtime.hasTransients, attributes.isEmpty, !object.hasPersistentChangedValues {
                    saved.unwritten.append(object)
                    continue
                }
                saved.updated.append(object)
                var toOne: [(index: Int, destination: ManagedObjectID?)] = []
                for index in object.changedRelationships.setIndices where !runtime.isToMany[index] {
                    toOne.append((index, toOneID(object, index)))
                }
                // Built in one expression: a mutated local was copied into the list.
                request.updates.append(SaveRequest.Update(
                    id: object.objectID, version: object.committed?.version ?? 1,
                    attributes: attributes, toOne: toOne,
                    changedToMany: recordsHistory ? object.changedRelationships.setIndices.filter { runtime.isToMany[$0] } : [],
                    row: object.isFaultStorage ? nil : (runtime.persistent(object.values), updatedToOnes(of: object, in: &toOnes))))
                if runtime.hasConstraints { request.uniquenessChecks += uniquenessChecks(for: object, onlyChanged: true) }
            }
            if runtime.hasOrderedToMany { appendPositions(of: object, to: &request) }
        }
        links.appendRows(to: &request, leaving: Set(saved.discarded.map(ObjectIdentifier.init)))
    }

    /// The columns an update writes: every stored attribute whose value differs
    /// from the committed snapshot, however it was set. A primitive setter
    /// (`setPrimitiveValue` in `willSave`, Core Data's pattern for a modification
    /// date) skips change tracking, not persistence, so the change mask alone
    /// would lose it.
    private func writtenAttributes(of object: ManagedObject) -> [(index: Int, value: AttributeValue)] {
        let isWritten = object.runtime.isWritten
        var attributes: [(index: Int, value: AttributeValue)] = []
        guard let committed = object.committed else {
            for index in object.changedAttributes.setIndices where isWritten[index] { attributes.append((index, object.values[index])) }
            return attributes
        }
        for index in object.values.indices where isWritten[index]
            && (index >= committed.values.count || object.values[index] != committed.values[index]) {
            attributes.append((index, object.values[index]))
        }
        return attributes
    }

    /// Ordering positions of changed ordered to-many relationships. One
    /// changed while not loaded (members added through their to-ones) loads
    /// now: the stored members keep their order and the new ones follow.
    private func appendPositions(of object: ManagedObject, to request: inout SaveRequest) {
        guard !object.isDeletedStorage else { return }
        let relationships = object.runtime.entity.relationships
        for index in object.changedRelationships.setIndices where relationships[index].isOrdered {
            for (position, member) in object.members(at: index).enumerated() {
                request.positions.append(SaveRequest.Position(
                    entityIndex: object.entityIndex, relationship: index, owner: object.objectID, member: member.objectID,
                    position: position))
            }
        }
    }

    /// The object's uniqueness constraints as the store checks them, each
    /// with its stored values (`onlyChanged`: those whose values changed).
    func uniquenessChecks(for object: ManagedObject, onlyChanged: Bool) -> [SaveRequest.UniquenessCheck] {
        var checks: [SaveRequest.UniquenessCheck] = []
        for (number, constraint) in coordinator.plans[object.entityIndex].writes.uniqueness.enumerated() {
            guard !constraint.properties.isEmpty else { continue }
            var values: [AttributeValue] = []
            values.reserveCapacity(constraint.properties.count)
            var touched = false
            for property in constraint.properties {
                switch property {
                case .attribute(let index):
                    values.append(object.values[index])
                    touched = touched || object.changeMasks[attribute: index]
                case .toOne(let index):
                    values.append(toOneID(object, index).map { .integer($0.primaryKey) } ?? .null)
                    touched = touched || object.changeMasks[relationship: index]
                }
            }
            guard !onlyChanged || touched else { continue }
            checks.append(SaveRequest.UniquenessCheck(id: object.objectID, constraint: number, values: values))
        }
        return checks
    }

    /// Where in `request.updates` the update a saved object's row took is,
    /// when `position` is the object's place in `saved.updated`
    /// (`buildRequest` lists the updates in that order; a save writes every
    /// update or none). A position, not the update: returned, it was copied.
    private func updatePosition(of object: ManagedObject, at position: Int, in request: SaveRequest) -> Int? {
        guard position >= 0, position < request.updates.count, request.updates[position].id == object.objectID
        else { return nil }
        return position
    }

    private func finish(_ result: consuming SaveResult, saved: SavedObjects, request: SaveRequest) {
        saveCount += 1
        for object in saved.discarded { detach(object) }
        // The temporary IDs the save replaces, read before they are; an object
        // given its key before the save (`obtainPermanentIDs`) is registered
        // under it already.
        let insertedIDs = result.insertedIDs
        let promoted = saved.inserted.prefix(insertedIDs.count).lazy.map(\.objectID).filter(\.isTemporaryID)
        registered.dropTemporary(promoted)
        registered.reserveStored(saved.inserted.count)
        for (position, object) in saved.inserted.enumerated() where position < insertedIDs.count {
            let permanent = insertedIDs[position]
            registered[permanent] = object
            object.objectID = permanent
            object.isInsertedStorage = false
        }
        // One arena for the committed to-ones of every saved object.
        var toOnes = RowArena<ManagedObjectID?>()
        // Inserted then updated objects, by position, without joining the arrays.
        let savedCount = saved.inserted.count + saved.updated.count
        let stale = result.changes?.staleEntities ?? []
        // Moved out of the result, which holds the only reference by now: each
        // snapshot then moves on to its object instead of being copied (a
        // retain of each window) and released with the list.
        var cachedRows: [KeyedSnapshot] = []
        swap(&cachedRows, &result.cachedRows)
        for position in 0..<savedCount {
            let object = position < saved.inserted.count ? saved.inserted[position] : saved.updated[position - saved.inserted.count]
            // An insert whose row the cache took as written commits that very
            // snapshot.
            if position < saved.inserted.count, position < cachedRows.count, !stale.contains(object.entityIndex),
               cachedRows[position].id == object.objectID, cachedRows[position].snapshot.values == object.values {
                object.committed = cachedRows[position].takeSnapshot()
                object.resetChangeFlags()
                continue
            }
            if let refreshed = result.refreshed[object.objectID] {
                for index in coordinator.plans[object.entityIndex].derivedAttributes { object.values[index] = refreshed.values[index] }
            }
            // An update's row is one past the version it expected, and holds
            // the to-ones the request took (shared, its temporary IDs resolved).
            let updateAt = updatePosition(of: object, at: position - saved.inserted.count, in: request)
            object.committed = RowSnapshot(
                entityIndex: object.entityIndex,
                version: updateAt.map { request.updates[$0].version + 1 } ?? (object.committed?.version ?? 1),
                values: object.runtime.persistent(object.values),
                toOne: updateAt.flatMap { request.updates[$0].row?.toOne }.map { result.promoted.resolving($0, in: &toOnes) }
                    ?? currentToOnes(of: object, in: &toOnes))
            object.resetChangeFlags()
        }
        for object in saved.unwritten { object.resetChangeFlags() }
        // Deleted objects leave the registry now, so nothing below refreshes
        // them, but stay readable until their `didSave` has run.
        for object in saved.deleted { registered[object.objectID] = nil }
        forgetAllChanges()
        links.removeAll()

        if !stale.isEmpty {
            // A save of a few objects (one per user action) scans them for each
            // stale object; hashing every stale object cost more than the scan.
            let savedObjects = saved.inserted + saved.updated
            let savedSet = savedObjects.count > 8 ? Set(savedObjects.map(ObjectKey.init)) : nil
            for object in registered.objects(ofEntities: stale) where !object.hasChangedProperties {
                let wasSaved = savedSet?.contains(ObjectKey(object)) ?? savedObjects.contains { $0 === object }
                // Merging: an unchanged object turns into a fault as before,
                // unless it holds transient values, which a re-read keeps.
                if !wasSaved { refreshUnannounced(object, mergeChanges: true) }
            }
        }
        for object in saved.inserted { object.didSave() }
        for object in saved.updated { object.didSave() }
        for object in saved.unwritten { object.didSave() }
        for object in saved.deleted { object.didSave() }
        for object in saved.deleted { detach(object) }

        // The store told the other contexts when it committed (ChangePublisher).
        // The changes are moved into the payload: a copy retained and
        // released each of their lists on every save.
        let changes = ContextDidSave(
            result.changes.take() ?? StoreChanges(source: ObjectIdentifier(self)),
            historyToken: result.historyTransaction.map {
                PersistentHistoryToken(storeUUID: coordinator.storeUUID, transactionNumber: $0)
            },
            promoted: result.promoted)
        didSaveUserInfo[ContextDidSave.userInfoKey] = consume changes
        NotificationCenter.default.post(name: .managedObjectContextDidSave, object: self, userInfo: didSaveUserInfo)
        // Emptied without a lookup: removing the key compares `AnyHashable`s,
        // which instantiates generic metadata on every call.
        didSaveUserInfo.removeAll(keepingCapacity: true)
    }

    /// Takes an object out of the context for good.
    func detach(_ object: ManagedObject) {
        registered[object.objectID] = nil
        forgetChanges(of: object)
        object.isDeletedStorage = true
        object.isInsertedStorage = false
        object.isFaultStorage = true
        object.releaseStorage()
        object.managedObjectContext = nil
    }
}
