// Declared here rather than with `FetchRequest`: a sort key is what the store
// takes down the fetch boundary (`StoreFetch.sortKeys`) and the compiler turns
// into ORDER BY, so the store's side can hold the request's array as it is.

/// A sort key of a fetch: an attribute or to-one relationship of the entity,
/// or a key path through to-one relationships (`author.name`).
public struct FetchSortDescriptor: Sendable, Hashable {
    public var key: String
    public var ascending: Bool
    /// Compares strings by their canonical form (case and diacritics folded):
    /// the attribute's `canonical:` column when it has one, else `FAULTLINE_CANONICAL`.
    public var caseInsensitive: Bool

    public init(key: String, ascending: Bool = true, caseInsensitive: Bool = false) {
        self.key = key
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
    }
}
