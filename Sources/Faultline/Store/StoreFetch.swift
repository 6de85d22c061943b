// The fetch boundary speaks the model: the context says what it wants in the
// model's terms (an entity index, the predicate tree, key paths) and the store,
// the one place that knows the tables, turns that into SQL (`CompiledFetch`).
// So the object graph never builds or reads a statement's text, and the SQL a
// fetch sends can change without the context noticing.

/// A fetch as the context asks it of the store.
struct StoreFetch: Sendable {
    var entityIndex: Int
    var includesSubentities = true
    /// Which rows; nil for every row of the entity.
    var predicate: FetchPredicate?
    /// Key paths (through to-ones), direction, canonical string order.
    var sortKeys: [FetchSortDescriptor] = []
    /// The key paths of a dictionary fetch's columns, in order; empty otherwise.
    var selecting: [String] = []
    var limit = 0
    var offset = 0
    /// Distinct rows of the selected columns (a dictionary fetch).
    var distinct = false
    /// Computed columns after `selecting`, grouping key paths and the group filter.
    var expressions: [ExpressionDescription] = []
    var groupBy: [String] = []
    var having: FetchPredicate?

    init(entityIndex: Int) {
        self.entityIndex = entityIndex
    }
}
