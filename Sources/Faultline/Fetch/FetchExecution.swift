/// Running fetch requests: one statement for the rows (or only the IDs with a
/// batch size), one per prefetched key path level, pending changes merged in
/// memory.
extension ManagedObjectContext {
    /// Runs `request` and returns managed objects. Objects deleted in this
    /// context are left out; with `includesPendingChanges`, unsaved inserted and
    /// changed objects are matched in memory. `file` and `line` name the fetch
    /// in the fault profiler's advice (`recordsFaultAdvice`).
    public func fetch(_ request: FetchRequest, file: StaticString = #fileID, line: UInt = #line) throws -> [ManagedObject] {
        mergeInbox()
        let (fetch, entity) = try compiledFetch(request)
        var objects: [ManagedObject] = []
        if request.fetchBatchSize > 0 {
            // Checked now: with batches the prefetch runs later, when a fault fires.
            try checkPrefetchKeyPaths(request.relationshipKeyPathsForPrefetching, from: entity)
            let ids = try coordinator.fetchIDs(fetch)
            objects.reserveCapacity(ids.count)
            var batch: [ManagedObject] = []
            for id in ids {
                let object = self.object(owned: id)
                if object.isDeletedStorage { continue }
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
            for chunk in rows.chunks.indices {
                for position in rows.chunks[chunk].indices {
                    let object = self.object(owned: rows.id(chunk: chunk, position: position))
                    if object.isDeletedStorage { continue }
                    if materializes, object.isFaultStorage {
                        materialize(object, from: rows.takeSnapshot(chunk: chunk, position: position))
                    }
                    objects.append(object)
                }
            }
            if !request.relationshipKeyPathsForPrefetching.isEmpty {
                try prefetch(request.relationshipKeyPathsForPrefetching, for: objects, entity: entity)
            }
        }
        if parent != nil { objects = try mergingAncestorChanges(into: objects, request, entity) }
        if request.includesPendingChanges { objects = try mergingPendingChanges(into: objects, request, entity) }
        if let faultAdvisor {
            faultAdvisor.recordFetch(
                entityName: entity.name, location: "\(file):\(line)", prefetched: request.relationshipKeyPathsForPrefetching,
                batchSize: request.fetchBatchSize, objects: objects)
        }
        return objects
    }

    /// The IDs of the matching objects: one statement reading only keys.
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ManagedObjectID] {
        mergeInbox()
        let (fetch, entity) = try compiledFetch(request)
        let ids = try coordinator.fetchIDs(fetch).filter { registeredObject(for: $0)?.isDeletedStorage != true }
        if parent != nil {
            var objects = try mergingAncestorChanges(into: ids.map { object(owned: $0) }, request, entity)
            if request.includesPendingChanges { objects = try mergingPendingChanges(into: objects, request, entity) }
            return objects.map(\.objectID)
        }
        guard request.includesPendingChanges, hasPendingChanges(for: entity, request) else { return ids }
        let objects = try mergingPendingChanges(into: ids.map { object(owned: $0) }, request, entity)
        return objects.map(\.objectID)
    }

    /// Runs `request` by its `resultType`.
    public func execute(_ request: FetchRequest) throws -> FetchResults {
        switch request.resultType {
        case .managedObjects: .managedObjects(try fetch(request))
        case .objectIDs: .objectIDs(try fetchObjectIDs(request))
        case .dictionaries: .dictionaries(try fetchDictionaries(request))
        }
    }

    /// The number of matching objects: one `SELECT COUNT(*)`, or, when this
    /// context has unsaved changes to the entity and `includesPendingChanges`,
    /// one statement for the IDs merged with the changes in memory.
    public func count(for request: FetchRequest) throws -> Int {
        mergeInbox()
        let (fetch, entity) = try compiledFetch(request)
        if parent != nil || (request.includesPendingChanges && hasPendingChanges(for: entity, request)) {
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
        guard let entity = coordinator.model.entity(named: request.entityName) else {
            throw FetchError.unknownEntity(request.entityName)
        }
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
}
