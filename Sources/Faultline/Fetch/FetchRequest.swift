// The request is Core Data's NSFetchRequest as a value: plain data, checked
// only when it runs, so one request can be built once and run in any context.
// How it runs is in the ManagedObjectContext+ files beside it.

/// What a fetch returns, as Core Data's `NSFetchRequestResultType`.
public enum FetchResultType: Sendable, Hashable {
    case managedObjects
    case objectIDs
    /// Dictionaries of `propertiesToFetch` (all stored attributes when empty).
    case dictionaries
    /// The number of results (Core Data's `countResultType`), as `count(for:)`
    /// counts them.
    case count
}

/// What to fetch: Core Data's `NSFetchRequest`.
public struct FetchRequest: Sendable {
    public var entityName: String
    /// Whether rows of sub-entities are included (Core Data's default: yes).
    public var includesSubentities = true
    /// Which objects; nil fetches every object of the entity.
    public var predicate: FetchPredicate?
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
    /// When false, only the matching objects' IDs are read: they come back as
    /// faults that read their rows one by one when fired (Core Data's
    /// `includesPropertyValues`; prefetching still reads its destinations).
    public var includesPropertyValues = true
    /// When true, objects already registered take the values just fetched —
    /// those without unsaved changes are read again; changed ones keep their
    /// changes over the new values — and are reported as refreshed (Core
    /// Data's `shouldRefreshRefetchedObjects`; off by default, as there).
    public var shouldRefreshRefetchedObjects = false
    /// Whether unsaved inserted and changed objects of the context that match
    /// (evaluated in memory) are included, and changed ones that no longer
    /// match left out, as Core Data does (and, as there, on by default).
    public var includesPendingChanges = true
    /// For `execute(_:)`; the typed methods ignore it.
    public var resultType = FetchResultType.managedObjects
    /// Key paths (attributes, to-one key paths) of a dictionary fetch.
    public var propertiesToFetch: [String] = []
    /// Computed columns of a dictionary fetch, after `propertiesToFetch`
    /// (Core Data mixes `NSExpressionDescription`s into `propertiesToFetch`).
    public var expressionsToFetch: [ExpressionDescription] = []
    /// Key paths whose values group the rows of a dictionary fetch
    /// (`GROUP BY`); every key path of `propertiesToFetch` must be one of them.
    public var propertiesToGroupBy: [String] = []
    /// Which groups are kept (`HAVING`): may name `expressionsToFetch` by
    /// their names, and aggregate the group's rows itself.
    public var havingPredicate: FetchPredicate?
    /// `SELECT DISTINCT` for a dictionary fetch.
    public var returnsDistinctResults = false
    /// Relationship key paths whose destinations are read with the fetch, one
    /// statement per key path level: `["books", "books.chapters", "publisher"]`.
    public var relationshipKeyPathsForPrefetching: [String] = []

    public init(entityName: String, predicate: FetchPredicate? = nil) {
        self.entityName = entityName
        self.predicate = predicate
    }

    /// A request whose predicate is parsed from `format`; throws `FetchPredicateError`.
    public init(entityName: String, format: String, _ arguments: Any?...) throws {
        self.init(entityName: entityName, predicate: try FetchPredicate(format: format, argumentArray: arguments))
    }

    /// The same with one array argument (`FetchPredicate(format:_:)` with a `[Any?]`).
    public init(entityName: String, format: String, _ argument: [Any?]) throws {
        self.init(entityName: entityName, predicate: try FetchPredicate(format: format, argumentArray: [argument]))
    }
}

/// The result of `execute(_:)`, by the request's `resultType`.
public enum FetchResults {
    case managedObjects([ManagedObject])
    case objectIDs([ManagedObjectID])
    case dictionaries([[String: Any]])
    case count(Int)
}
