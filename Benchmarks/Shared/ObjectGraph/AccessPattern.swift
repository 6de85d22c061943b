import Foundation
import FaultlineBench

/// Which parents a profiled workload touches, in which order, and how deep.
public struct AccessPattern: Hashable, Sendable, CustomStringConvertible {
    public enum Order: String, Sendable, CaseIterable {
        case sequential, random
    }

    /// The fraction of parents touched, in (0, 1].
    public let fraction: Double
    public let order: Order
    /// Relationship key paths from the top level, e.g. `books` or `books.chapters`.
    public let keyPaths: [String]
    public let seed: UInt64

    /// `knownKeyPaths`: the key paths the graph has (the generated graph's by
    /// default); nil when the caller checks them against a model itself.
    public init(fraction: Double, order: Order, keyPaths: [String], seed: UInt64 = 0x5EED,
                knownKeyPaths: [String]? = ObjectGraphModel.keyPaths) throws(ObjectGraphInputError) {
        guard fraction > 0, fraction <= 1 else {
            throw ObjectGraphInputError("--touch expects a fraction in (0, 1], e.g. 0.1; got \(fraction)")
        }
        guard !keyPaths.isEmpty else { throw ObjectGraphInputError("--keypaths needs at least one key path") }
        if let knownKeyPaths {
            for path in keyPaths where !knownKeyPaths.contains(path) {
                throw ObjectGraphInputError(
                    "unknown key path '\(path)': the generated graph has \(knownKeyPaths.joined(separator: ", "))")
            }
        }
        self.fraction = fraction
        self.order = order
        self.keyPaths = keyPaths
        self.seed = seed
    }

    /// Parses `--touch`, `--order` and `--keypaths` values.
    public init(touch: String, order: String, keyPaths: String,
                knownKeyPaths: [String]? = ObjectGraphModel.keyPaths) throws(ObjectGraphInputError) {
        guard let fraction = Double(touch), fraction.isFinite else {
            throw ObjectGraphInputError("--touch expects a fraction in (0, 1], e.g. 0.1; got '\(touch)'")
        }
        guard let parsedOrder = Order(rawValue: order) else {
            throw ObjectGraphInputError("--order expects random or sequential; got '\(order)'")
        }
        let paths = keyPaths.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        try self.init(fraction: fraction, order: parsedOrder, keyPaths: paths.filter { !$0.isEmpty },
                      knownKeyPaths: knownKeyPaths)
    }

    /// The deepest level any key path reaches (1: `books`, 2: `books.chapters`).
    public var depth: Int { keyPaths.map { $0.split(separator: ".").count }.max() ?? 0 }

    /// How many of `parents` are touched: at least one.
    public func touchedCount(of parents: Int) -> Int {
        max(1, min(parents, Int((Double(parents) * fraction).rounded())))
    }

    /// The 0-based indexes of the parents touched, in touch order: the first
    /// ones for `sequential`, a seeded sample (no repeats) for `random`.
    public func touchedParents(of parents: Int) -> [Int] {
        let count = touchedCount(of: parents)
        switch order {
        case .sequential:
            return Array(0..<count)
        case .random:
            var random = SeededRandom(seed: seed)
            var indexes = Array(0..<parents)
            // A partial Fisher–Yates shuffle: the first `count` are the sample.
            for position in 0..<count {
                let pick = position + Int(random.next() % UInt64(parents - position))
                indexes.swapAt(position, pick)
            }
            return Array(indexes.prefix(count))
        }
    }

    public var description: String {
        "touch=\(fraction) order=\(order.rawValue) keypaths=\(keyPaths.joined(separator: ","))"
    }
}
