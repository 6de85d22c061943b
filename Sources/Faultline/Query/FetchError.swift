import Foundation
// Declared with the compiler, the lowest layer that throws it: the compiler
// refuses unknown sort keys, key paths and predicates it cannot translate;
// fetch execution above adds unknown entities and prefetch key paths. Callers
// match on the cases, so they stay as they are wherever the type lives.

/// A fetch that cannot run.
public enum FetchError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownEntity(String)
    case unknownSortKey(entity: String, key: String)
    /// A `propertiesToFetch` or prefetching key path the entity does not have.
    case unknownKeyPath(entity: String, keyPath: String)
    /// A predicate construct the SQL compiler does not translate.
    case unsupportedPredicate(String)
    /// A grouped dictionary fetch asking for a key path it does not group by
    /// (only grouped key paths and aggregates have one value per group).
    case ungroupedProperty(entity: String, keyPath: String)
    /// A negative `fetchOffset` or `fetchLimit` (0 is "none"; Core Data's are unsigned).
    case negativeFetchWindow(offset: Int, limit: Int)
    /// The store failed while running the fetch.
    case store(String)

    public var description: String {
        switch self {
        case .unknownEntity(let name): "the model has no entity '\(name)'"
        case .unknownSortKey(let entity, let key): "\(entity) has no stored attribute or to-one '\(key)' to sort by"
        case .unknownKeyPath(let entity, let keyPath): "\(entity) has no key path '\(keyPath)' to fetch"
        case .unsupportedPredicate(let what): "the predicate compiler does not support \(what)"
        case .ungroupedProperty(let entity, let keyPath):
            "\(entity).\(keyPath) is fetched but not in propertiesToGroupBy: a grouped fetch returns grouped key paths and aggregates"
        case .negativeFetchWindow(let offset, let limit):
            "fetchOffset (\(offset)) and fetchLimit (\(limit)) cannot be negative: 0 means no offset, no limit"
        case .store(let message): "the store failed: \(message)"
        }
    }
}

extension FetchError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
