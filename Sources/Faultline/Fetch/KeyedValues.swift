/// Each matching row's ID with a few of its values: what a fetched-results
/// controller over a batched fetch holds instead of objects.
extension ManagedObjectContext {
    /// The IDs of the objects `request` matches, in its order, each with the
    /// values at `keyPaths` as the predicate evaluator reads them (a to-one
    /// as its destination's key): one statement. Unsaved changes are not
    /// included.
    func fetchKeyedValues(_ request: FetchRequest, keyPaths: [String]) throws -> [(ManagedObjectID, [PredicateValue])] {
        let (fetch, _) = try compiledFetch(request, selecting: keyPaths)
        return try coordinator.fetchKeyedColumns(fetch).map { id, values in
            (id, values.map { value in
                switch value {
                case .value(let value): value.predicateValue
                case .object(let destination): destination.map { .int($0.primaryKey) } ?? .null
                }
            })
        }
    }
}
