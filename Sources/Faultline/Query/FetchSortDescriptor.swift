// Declared here rather than with `FetchRequest`: a sort key is what the store
// takes down the fetch boundary (`StoreFetch.sortKeys`) and the compiler turns
// into ORDER BY, so the store's side can hold the request's array as it is.

/// A sort key of a fetch: an attribute or to-one relationship of the entity,
/// or a key path through to-one relationships (`author.name`).
public struct FetchSortDescriptor: Sendable, Hashable {
    /// How two strings compare (other values compare by value).
    public enum Comparison: Sendable, Hashable {
        /// By their UTF-8 bytes.
        case binary
        /// By their canonical form, case and diacritics folded: the
        /// attribute's `canonical:` column when it has one, else
        /// `FAULTLINE_CANONICAL` (Core Data's `caseInsensitiveCompare:`,
        /// which keeps diacritics).
        case caseInsensitive
        /// Finder's order, Core Data's `localizedStandardCompare:`
        /// (`StandardTextOrder`): case-insensitive, digits as numbers ("item 2"
        /// before "item 10"), in the current locale's collation. The store
        /// sorts with a collating sequence that calls the same comparison, so
        /// no index serves it.
        case localizedStandard
    }

    public var key: String
    public var ascending: Bool
    public var comparison: Comparison

    /// Whether strings compare by their canonical form (`comparison == .caseInsensitive`).
    public var caseInsensitive: Bool {
        get { comparison == .caseInsensitive }
        set { comparison = newValue ? .caseInsensitive : .binary }
    }

    public init(key: String, ascending: Bool = true, caseInsensitive: Bool = false) {
        self.init(key: key, ascending: ascending, comparison: caseInsensitive ? .caseInsensitive : .binary)
    }

    public init(key: String, ascending: Bool = true, comparison: Comparison) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// The same key in the other direction (Core Data's `reversedSortDescriptor`).
    public var reversed: FetchSortDescriptor {
        FetchSortDescriptor(key: key, ascending: !ascending, comparison: comparison)
    }
}
