import Foundation

/// Dictionary results: `propertiesToFetch` (attributes, key paths through
/// to-ones, to-one relationships as object IDs), optionally DISTINCT, in one
/// statement. As in Core Data, pending changes are not included.
extension ManagedObjectContext {
    public func fetchDictionaries(_ request: FetchRequest) throws -> [[String: Any]] {
        mergeInbox()
        guard let entity = coordinator.model.entity(named: request.entityName) else {
            throw FetchError.unknownEntity(request.entityName)
        }
        var keyPaths = request.propertiesToFetch
        if keyPaths.isEmpty {
            let mapping = coordinator.schema.entities[entity.index]
            keyPaths = entity.attributes.filter { mapping.column(forAttributeAt: $0.index) != nil }.map(\.name)
        }
        var (fetch, _, columns) = try storeFetch(request, selecting: keyPaths)
        fetch.distinct = request.returnsDistinctResults
        let rows = try coordinator.fetchColumns(fetch, columns: columns)
        return rows.map { row in
            var dictionary = [String: Any](minimumCapacity: columns.count)
            for (column, value) in zip(columns, row) {
                switch value {
                case .value(let value): if let any = value.anyValue { dictionary[column.keyPath] = any }
                case .object(let id): if let id { dictionary[column.keyPath] = id }
                }
            }
            return dictionary
        }
    }
}
