import Foundation

/// Dictionary results: `propertiesToFetch` (attributes, key paths through
/// to-ones, to-one relationships as object IDs) and `expressionsToFetch`
/// (computed columns, aggregates over groups of `propertiesToGroupBy`, kept
/// by `havingPredicate`), optionally DISTINCT, in one statement. As in Core
/// Data, pending changes are not included.
extension ManagedObjectContext {
    public func fetchDictionaries(_ request: FetchRequest) throws -> [[String: Any]] {
        mergeInbox()
        guard let entity = coordinator.model.entity(named: request.entityName) else {
            throw FetchError.unknownEntity(request.entityName)
        }
        var keyPaths = request.propertiesToFetch
        if keyPaths.isEmpty, request.expressionsToFetch.isEmpty {
            keyPaths = coordinator.storedAttributeNames(ofEntityAt: entity.index)
        }
        let (fetch, _) = try compiledFetch(request, selecting: keyPaths, computing: true)
        keyPaths += request.expressionsToFetch.map(\.name)
        let rows = try coordinator.fetchColumns(fetch)
        // Each key's position, hashed once: a row without nils maps this table's
        // values in place (`mapValues` keeps the hash table), where inserting
        // key by key hashed every key string again for every row. A key listed
        // twice takes its last column, as the inserts below would.
        let positions = [String: Int](keyPaths.indices.map { (keyPaths[$0], $0) }) { _, last in last }
        return rows.map { row in
            if row.allSatisfy(Self.isPresent) { return positions.mapValues { Self.presentValue(row[$0]) } }
            var dictionary = [String: Any](minimumCapacity: keyPaths.count)
            for (keyPath, value) in zip(keyPaths, row) where Self.isPresent(value) {
                dictionary[keyPath] = Self.presentValue(value)
            }
            return dictionary
        }
    }

    /// Core Data leaves nil values out of dictionary results.
    private static func isPresent(_ value: SelectedValue) -> Bool {
        switch value {
        case .value(let value): value != .null
        case .object(let id): id != nil
        }
    }

    /// The value as a dictionary result holds it; only for a present one.
    private static func presentValue(_ value: SelectedValue) -> Any {
        switch value {
        case .value(let value): value.anyValue ?? NSNull()
        case .object(let id): if let id { id } else { NSNull() }
        }
    }
}
