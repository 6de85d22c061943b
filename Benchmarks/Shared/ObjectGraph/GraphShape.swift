/// The shape of a generated object graph: how many parents, and each level's
/// fan-out below them. `1000x100x10` is 1,000 `Level0` objects with 100
/// `Level1` children each, each with 10 `Level2` children.
public struct GraphShape: Hashable, Sendable, CustomStringConvertible {
    /// Objects at the top level.
    public let parents: Int
    /// Children per object, one entry per level below the top (1 or 2 entries).
    public let fanOuts: [Int]

    /// The deepest graph the generic model holds: `Level0 → Level1 → Level2`.
    public static let maximumDepth = 3
    /// A cap on the generated rows, so a typo cannot fill the disk.
    public static let maximumObjects = 20_000_000

    public init(parents: Int, fanOuts: [Int]) throws(ObjectGraphInputError) {
        guard parents > 0, !fanOuts.isEmpty, fanOuts.allSatisfy({ $0 > 0 }) else {
            throw ObjectGraphInputError("a graph needs at least 1 parent and a fan-out of at least 1 at each level")
        }
        guard fanOuts.count < Self.maximumDepth else {
            throw ObjectGraphInputError("a graph has at most \(Self.maximumDepth) levels (e.g. 1000x100x10)")
        }
        // Counted level by level against the cap, so no product can overflow.
        var level = parents, total = parents
        for fanOut in fanOuts where total <= Self.maximumObjects {
            let (next, overflow) = level.multipliedReportingOverflow(by: fanOut)
            level = overflow ? Int.max : next
            total = level > Self.maximumObjects ? level : total + level
        }
        guard total <= Self.maximumObjects else {
            let shape = ([parents] + fanOuts).map(String.init).joined(separator: "x")
            throw ObjectGraphInputError("\(shape) has more than \(Self.maximumObjects) objects, the limit")
        }
        self.parents = parents
        self.fanOuts = fanOuts
    }

    /// Parses `PARENTSxFANOUT[xFANOUT]`, e.g. `1000x100` or `1000x100x10`.
    public init(parsing text: String) throws(ObjectGraphInputError) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0.replacingOccurrences(of: "_", with: "")) }
        guard parts.count >= 2, numbers.count == parts.count else {
            throw ObjectGraphInputError("--graph expects PARENTSxFANOUT[xFANOUT], e.g. 1000x100x10; got '\(text)'")
        }
        try self.init(parents: numbers[0], fanOuts: Array(numbers.dropFirst()))
    }

    /// The number of levels, the top included.
    public var depth: Int { fanOuts.count + 1 }

    /// Objects at each level, top first.
    public var levelCounts: [Int] {
        var counts = [parents]
        for fanOut in fanOuts { counts.append((counts.last ?? 0) * fanOut) }
        return counts
    }

    public var objectCount: Int { levelCounts.reduce(0, +) }

    public var description: String { ([parents] + fanOuts).map(String.init).joined(separator: "x") }
}

/// A malformed command-line value or an impossible graph or access pattern.
public struct ObjectGraphInputError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
