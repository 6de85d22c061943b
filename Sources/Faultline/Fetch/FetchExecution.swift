/// Running fetch requests: one statement for the rows (or only the IDs with a
/// batch size), one per prefetched key path level, pending changes merged in
/// memory.
extension ManagedObjectContext {
    /// Runs `request` and returns managed objects. Objects deleted in this
    /// context are left out; with `includesPendingChanges`, unsaved inserted and
    /// changed objects are matched in memory. `file` and `line` name the fetch
    /// in the fault profiler's advice (`recordsFaultAdvice`).
    public func fetch(_ request: FetchRequest, file: StaticString = #fileID, line: UInt = #line) throws -> [ManagedObject] {
        checkQueue()
        let entity = try fetchedEntity(request)
        // Checked before anything runs, whichever path prefetches (at once, or
        // batch by batch as faults fire).
        try checkPrefetchKeyPaths(request.relationshipKeyPathsForPrefetching, from: entity)
        let ancestors = ancestorChanges(request, entity)
        let widened = widenedForPendingChanges(request, entity, ancestors: ancestors)
        let (fetch, _) = try compiledFetch(widened ?? request)
        var objects: [ManagedObject] = []
        if !request.includesPropertyValues {
            // IDs only: each fault reads its row when it fires.
            for id in try coordinator.fetchIDs(fetch) {
                let object = self.object(owned: id)
                if object.isDeletedStorage { continue }
                if request.shouldRefreshRefetchedObjects { refetched(object) }
                objects.append(object)
            }
            if !request.relationshipKeyPathsForPrefetching.isEmpty {
                try prefetch(request.relationshipKeyPathsForPrefetching, for: objects, entity: entity)
            }
        } else if request.fetchBatchSize > 0 {
            let ids = try coordinator.fetchIDs(fetch)
            objects.reserveCapacity(ids.count)
            var batch: [ManagedObject] = []
            for id in ids {
                let object = self.object(owned: id)
                if object.isDeletedStorage { continue }
                if request.shouldRefreshRefetchedObjects { refetched(object) }
                objects.append(object)
                if object.isFaultStorage { batch.append(object) }
                if batch.count == request.fetchBatchSize {
                    attach(batch, prefetching: request.relationshipKeyPathsForPrefetching)
                    batch = []
                }
            }
            attach(batch, prefetching: request.relationshipKeyPathsForPrefetching)
        } else {
            var rows = try coordinator.fetchRows(fetch)
            objects.reserveCapacity(rows.count)
            registered.reserveStored(rows.count)
            let materializes = !request.returnsObjectsAsFaults || !request.relationshipKeyPathsForPrefetching.isEmpty
            for chunkIndex in rows.chunks.indices {
                var chunk = rows.takeChunk(chunkIndex)
                for position in chunk.indices {
                    let object = self.object(owned: chunk[position].id)
                    if object.isDeletedStorage { continue }
                    if request.shouldRefreshRefetchedObjects { refetched(object) }
                    if materializes, object.isFaultStorage {
                        materialize(object, from: chunk[position].takeSnapshot())
                    }
                    objects.append(consume object)
                }
            }
            if !request.relationshipKeyPathsForPrefetching.isEmpty {
                try prefetch(request.relationshipKeyPathsForPrefetching, for: objects, entity: entity)
            }
        }
        if let ancestors { objects = try merging(ancestors, into: objects, widened ?? request) }
        if request.includesPendingChanges { objects = try mergingPendingChanges(into: objects, widened ?? request, entity) }
        if widened != nil { objects = Self.window(objects, of: request) }
        if let faultAdvisor {
            faultAdvisor.recordFetch(
                of: entity, in: coordinator.model, location: "\(file):\(line)", prefetched: request.relationshipKeyPathsForPrefetching,
                batchSize: request.fetchBatchSize, includesPropertyValues: request.includesPropertyValues, objects: objects)
        }
        return objects
    }

    /// `shouldRefreshRefetchedObjects`: a registered object fetched again
    /// shows the store's values. One without changes turns back into a fault,
    /// filled from the row just fetched (or its batch); a changed one is read
    /// again keeping its changes.
    private func refetched(_ object: ManagedObject) {
        guard !object.isFaultStorage, !object.isInsertedStorage else { return }
        refresh(object, mergeChanges: object.hasChangedProperties)
    }

    /// The IDs of the matching objects: one statement reading only keys.
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ManagedObjectID] {
        checkQueue()
        let entity = try fetchedEntity(request)
        let ancestors = ancestorChanges(request, entity)
        let widened = widenedForPendingChanges(request, entity, ancestors: ancestors)
        let (fetch, _) = try compiledFetch(widened ?? request)
        let ids = try coordinator.fetchIDs(fetch).filter { registeredObject(for: $0)?.isDeletedStorage != true }
        let merged: [ManagedObjectID]
        if let ancestors {
            var objects = try merging(ancestors, into: ids.map { object(owned: $0) }, widened ?? request)
            if request.includesPendingChanges { objects = try mergingPendingChanges(into: objects, widened ?? request, entity) }
            merged = objects.map(\.objectID)
        } else if request.includesPendingChanges, hasPendingChanges(for: entity, request) {
            merged = try mergingPendingChanges(into: ids.map { object(owned: $0) }, widened ?? request, entity).map(\.objectID)
        } else {
            merged = ids
        }
        return widened == nil ? merged : Self.window(merged, of: request)
    }

    /// Runs `request` by its `resultType`.
    public func execute(_ request: FetchRequest) throws -> FetchResults {
        checkQueue()
        return switch request.resultType {
        case .managedObjects: .managedObjects(try fetch(request))
        case .objectIDs: .objectIDs(try fetchObjectIDs(request))
        case .dictionaries: .dictionaries(try fetchDictionaries(request))
        case .count: .count(try count(for: request))
        }
    }

    /// The number of results `execute(_:)` would return: one `SELECT COUNT(*)`,
    /// or, when this context has unsaved changes to the entity (deletions
    /// included: a fetch leaves deleted objects out), one statement for the
    /// IDs merged with the changes in memory; for a dictionary request, the
    /// number of dictionaries its statement returns.
    public func count(for request: FetchRequest) throws -> Int {
        checkQueue()
        // Distinct or grouped rows, and the store's rows alone (a dictionary
        // fetch does not merge unsaved changes): counted as fetched.
        if request.resultType == .dictionaries { return try fetchDictionaries(request).count }
        let (fetch, entity) = try compiledFetch(request)
        if parent != nil || hasPendingChanges(for: entity, request) {
            return try fetchObjectIDs(request).count
        }
        return try coordinator.count(fetch)
    }

    func attach(_ batch: [ManagedObject], prefetching keyPaths: [String]) {
        guard !batch.isEmpty else { return }
        let group = FaultBatch(batch, afterFiring: keyPaths.isEmpty ? nil : { context, members in
            context.prefetch(keyPaths, forBatch: members)
        })
        for object in batch { object.batch = group }
    }

    /// `request` as the store takes it, in the model's terms, compiled by
    /// the store now so its errors come before any statement runs; with
    /// `keyPaths`, the columns of a dictionary fetch.
    func compiledFetch(
        _ request: FetchRequest, selecting keyPaths: [String] = [], computing: Bool = false
    ) throws -> (CompiledFetch, CheckedEntity) {
        let entity = try fetchedEntity(request)
        var fetch = StoreFetch(entityIndex: entity.index)
        fetch.includesSubentities = request.includesSubentities
        fetch.predicate = request.predicate
        fetch.sortKeys = request.sortDescriptors
        fetch.selecting = keyPaths
        fetch.limit = request.fetchLimit
        fetch.offset = request.fetchOffset
        fetch.distinct = request.returnsDistinctResults
        if computing {
            fetch.expressions = request.expressionsToFetch
            fetch.groupBy = request.propertiesToGroupBy
            fetch.having = request.havingPredicate
        }
        return (try coordinator.compile(fetch), entity)
    }

    /// The entity `request` names, once the request is known to be runnable:
    /// every fetch, count and controller starts here.
    func fetchedEntity(_ request: FetchRequest) throws -> CheckedEntity {
        guard let entity = coordinator.model.entity(named: request.entityName) else {
            throw FetchError.unknownEntity(request.entityName)
        }
        // SQLite would take a negative offset as none, the in-memory window
        // (unsaved changes merged) cannot: refused, whichever runs.
        guard request.fetchOffset >= 0, request.fetchLimit >= 0 else {
            throw FetchError.negativeFetchWindow(offset: request.fetchOffset, limit: request.fetchLimit)
        }
        return entity
    }
}
