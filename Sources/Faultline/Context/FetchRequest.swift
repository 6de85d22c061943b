/// A sort key of a fetch: an attribute or to-one relationship of the entity.
public struct FetchSortDescriptor: Sendable, Hashable {
    public var key: String
    public var ascending: Bool
    public init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}

/// What to fetch: Core Data's `NSFetchRequest`, without predicates yet (the
/// predicate language compiles to SQL in the fetching issue).
public struct FetchRequest: Sendable {
    public var entityName: String
    /// Whether rows of sub-entities are included (Core Data's default: yes).
    public var includesSubentities = true
    public var sortDescriptors: [FetchSortDescriptor] = []
    /// At most this many objects (0: no limit).
    public var fetchLimit = 0
    public var fetchOffset = 0
    /// When positive, the fetch reads only IDs; each batch of this many objects
    /// is read in one statement when one of its faults first fires.
    public var fetchBatchSize = 0
    /// When false, objects come back materialised; when true (the default) as
    /// faults whose rows wait in the row cache, so firing them costs no SQL.
    public var returnsObjectsAsFaults = true

    public init(entityName: String) {
        self.entityName = entityName
    }
}

/// A fetch that cannot run.
public enum FetchError: Error, Equatable, CustomStringConvertible {
    case unknownEntity(String)
    case unknownSortKey(entity: String, key: String)

    public var description: String {
        switch self {
        case .unknownEntity(let name): return "the model has no entity '\(name)'"
        case .unknownSortKey(let entity, let key): return "\(entity) has no stored attribute or to-one '\(key)' to sort by"
        }
    }
}

extension ManagedObjectContext {
    /// Runs `request`: one statement (IDs only with a batch size, else whole
    /// rows into the row cache). Objects deleted in this context are left out.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        mergeInbox()
        let fetch = try storeFetch(request)
        var objects: [ManagedObject] = []
        if request.fetchBatchSize > 0 {
            let ids = try coordinator.fetchIDs(fetch)
            objects.reserveCapacity(ids.count)
            var batch: [ManagedObject] = []
            for id in ids {
                let object = self.object(with: id)
                if object.isDeletedStorage { continue }
                objects.append(object)
                if object.isFaultStorage { batch.append(object) }
                if batch.count == request.fetchBatchSize {
                    attach(batch)
                    batch = []
                }
            }
            attach(batch)
            return objects
        }
        let rows = try coordinator.fetchRows(fetch)
        objects.reserveCapacity(rows.count)
        for (id, snapshot) in rows {
            let object = self.object(with: id)
            if object.isDeletedStorage { continue }
            if !request.returnsObjectsAsFaults, object.isFaultStorage { materialize(object, from: snapshot) }
            objects.append(object)
        }
        return objects
    }

    /// `SELECT COUNT(*)` for `request`.
    public func count(for request: FetchRequest) throws -> Int {
        try coordinator.count(storeFetch(request))
    }

    private func attach(_ batch: [ManagedObject]) {
        guard !batch.isEmpty else { return }
        let group = FaultBatch(batch)
        for object in batch { object.batch = group }
    }

    private func storeFetch(_ request: FetchRequest) throws -> StoreFetch {
        guard let entity = coordinator.model.entity(named: request.entityName) else {
            throw FetchError.unknownEntity(request.entityName)
        }
        let mapping = coordinator.schema.entities[entity.index]
        var fetch = StoreFetch(entityIndex: entity.index)
        fetch.includesSubentities = request.includesSubentities
        fetch.limit = request.fetchLimit
        fetch.offset = request.fetchOffset
        for sort in request.sortDescriptors {
            var column: String?
            switch entity.propertyByName[sort.key] {
            case .attribute(let index)?: column = mapping.column(forAttributeAt: index)
            case .relationship(let index)?:
                if case .foreignKey(let key, _) = mapping.relationships[index] { column = key }
            default: column = nil
            }
            guard let column else { throw FetchError.unknownSortKey(entity: entity.name, key: sort.key) }
            fetch.sort.append((column, sort.ascending))
        }
        return fetch
    }
}
