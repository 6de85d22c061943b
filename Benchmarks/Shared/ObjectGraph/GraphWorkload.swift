import Faultline

/// The profiled work: fetch every parent, then for each touched parent (in the
/// pattern's order) read its title and walk its key paths, reading the title
/// of every object reached. Returns a checksum of what it read.
public struct GraphWorkload: Hashable, Sendable {
    public let shape: GraphShape
    public let pattern: AccessPattern
    /// 0-based indexes of the touched parents, in touch order.
    public let touched: [Int]

    public init(shape: GraphShape, pattern: AccessPattern) throws(ObjectGraphInputError) {
        try ProfilerArguments.check(shape, pattern)
        self.shape = shape
        self.pattern = pattern
        touched = pattern.touchedParents(of: shape.parents)
    }

    /// Runs a Faultline strategy in `context` (on its queue). `.raw` is not a
    /// context strategy: see `RawGraphReader`.
    public func run(_ strategy: FaultStrategy, in context: ManagedObjectContext) throws -> Int {
        let request = strategy.request(entityName: ObjectGraphModel.entityNames[0], keyPaths: pattern.keyPaths)
        return try context.performAndWait {
            var parents = try context.fetch(request)
            if !parents.indices.allSatisfy({ parents[$0].objectID.primaryKey == Int64($0 + 1) }) {
                parents.sort { $0.objectID.primaryKey < $1.objectID.primaryKey }
            }
            var checksum = 0
            // `books` and `books.chapters` together walk `books` once.
            let depth = pattern.depth
            for index in touched where index < parents.count {
                let parent = parents[index]
                checksum &+= parent[Keys.title0]?.utf8.count ?? 0
                for book in parent[Keys.books] {
                    checksum &+= book[Keys.title1]?.utf8.count ?? 0
                    guard depth > 1 else { continue }
                    for chapter in book[Keys.chapters] {
                        checksum &+= chapter[Keys.title2]?.utf8.count ?? 0
                    }
                }
            }
            return checksum
        }
    }

    /// One key per level: a slot caches its index for one entity hierarchy.
    private enum Keys {
        static let title0 = AttributeKey<String?>("title")
        static let title1 = AttributeKey<String?>("title")
        static let title2 = AttributeKey<String?>("title")
        static let books = ToManyKey<ManagedObject>("books")
        static let chapters = ToManyKey<ManagedObject>("chapters")
    }
}
