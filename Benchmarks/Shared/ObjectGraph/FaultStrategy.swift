import Faultline

/// A way to read the touched part of a graph: each is one benchmark line,
/// named by its `strategy` parameter so the report's heat map groups them.
public enum FaultStrategy: Hashable, Sendable, CustomStringConvertible {
    /// Parents fetched as faults; relationships loaded on touch.
    case lazy
    /// Parents fetched as IDs and faulted `size` at a time (`fetchBatchSize`).
    case batch(Int)
    /// Parents fetched as full objects (`returnsObjectsAsFaults = false`).
    case full
    /// The touched key paths prefetched (`relationshipKeyPathsForPrefetching`).
    case prefetch
    /// Both at once: parents faulted `size` at a time, each batch's touched
    /// key paths prefetched as the batch fires, as Core Data does.
    case prefetchBatch(Int)
    /// `lazy` with the row cache already warm from a previous context.
    case warmCache
    /// The SQLite C API doing the same reads by hand: the reference line.
    case raw

    public static let batchSizes = [10, 100, 1_000]
    /// The batch sizes combined with prefetching.
    public static let prefetchBatchSizes = [100, 1_000]
    /// Every strategy, the reference first.
    public static let all: [FaultStrategy] = [.raw, .lazy] + batchSizes.map(FaultStrategy.batch) + [.full, .prefetch]
        + prefetchBatchSizes.map(FaultStrategy.prefetchBatch) + [.warmCache]

    /// The `strategy` parameter value: `lazy`, `batch10`, `full`, …
    public var description: String {
        switch self {
        case .lazy: "lazy"
        case .batch(let size): "batch\(size)"
        case .full: "full"
        case .prefetch: "prefetch"
        case .prefetchBatch(let size): "prefetchBatch\(size)"
        case .warmCache: "warmCache"
        case .raw: "raw"
        }
    }
}

extension FaultStrategy {
    /// The fetch request the strategy starts from: every object of the entity,
    /// configured for the strategy. `.raw` is not a context strategy.
    public func request(entityName: String, keyPaths: [String]) -> FetchRequest {
        var request = FetchRequest(entityName: entityName)
        switch self {
        case .batch(let size): request.fetchBatchSize = size
        case .full: request.returnsObjectsAsFaults = false
        case .prefetch: request.relationshipKeyPathsForPrefetching = keyPaths
        case .prefetchBatch(let size):
            request.fetchBatchSize = size
            request.relationshipKeyPathsForPrefetching = keyPaths
        case .lazy, .warmCache, .raw: break
        }
        return request
    }
}
