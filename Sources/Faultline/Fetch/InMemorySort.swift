import FaultlineSupport
import Foundation

/// A fetch's sort descriptors applied in memory, in the store's order: nil
/// first, strings by UTF-8 bytes (or, case-insensitively, by canonical form,
/// or in `StandardTextOrder`, as the store's standard collating sequence),
/// numbers and dates by value, binary data and UUIDs by their bytes, a to-one
/// by its destination's key. What
/// `includesPendingChanges` sorts with, and what a fetched-results controller
/// places a changed object by.
struct InMemorySort {
    let descriptors: [FetchSortDescriptor]
    private let paths: [PredicateKeyPath]
    private let options: [PredicateComparisonOptions]
    private let standard: [Bool]

    init(_ descriptors: [FetchSortDescriptor]) {
        self.descriptors = descriptors
        paths = descriptors.map { PredicateKeyPath($0.key.split(separator: ".").map(String.init)) }
        options = descriptors.map { $0.caseInsensitive ? [.caseInsensitive, .diacriticInsensitive] : [] }
        standard = descriptors.map { $0.comparison == .localizedStandard }
    }

    /// The value of each sort key of `object`, in the descriptors' order.
    func keys(of object: ManagedObject) throws -> [PredicateValue] {
        let evaluator = PredicateEvaluator(subject: object)
        return try paths.map { try Self.value(at: $0, with: evaluator) }
    }

    /// A key path's value as a sort or section key: a to-one as its
    /// destination's key, a collection as nil.
    static func value(at path: PredicateKeyPath, with evaluator: PredicateEvaluator) throws -> PredicateValue {
        switch try evaluator.resolve(.keyPath(path)) {
        case .value(let value): value
        case .object(let destination): .int(destination.predicateObjectID?.primaryKey ?? 0)
        case .collection: .null
        }
    }

    /// How two objects' keys (each `descriptors.count` values, from `keys(of:)`
    /// or read from the store) order.
    func compare(_ first: ArraySlice<PredicateValue>, _ second: ArraySlice<PredicateValue>) -> ComparisonResult {
        first.withUnsafeBufferPointer { a in second.withUnsafeBufferPointer { b in compare(a, from: 0, b, from: 0) } }
    }

    /// The same for keys stored in runs: `first[firstStart...]` against
    /// `second[secondStart...]`, without making a slice of either.
    func compare(_ first: [PredicateValue], from firstStart: Int, _ second: [PredicateValue], from secondStart: Int) -> ComparisonResult {
        first.withUnsafeBufferPointer { a in second.withUnsafeBufferPointer { b in compare(a, from: firstStart, b, from: secondStart) } }
    }

    private func compare(_ first: UnsafeBufferPointer<PredicateValue>, from firstStart: Int,
                         _ second: UnsafeBufferPointer<PredicateValue>, from secondStart: Int) -> ComparisonResult {
        var a = firstStart, b = secondStart
        for position in descriptors.indices {
            let order: ComparisonResult
            switch (first[a], second[b]) {
            case (.null, .null): order = .orderedSame
            case (.null, _): order = .orderedAscending
            case (_, .null): order = .orderedDescending
            // Stored as blobs, which SQLite orders byte by byte, a prefix first.
            case let (.data(left), .data(right)): order = Self.byteOrder(left, right)
            case let (.uuid(left), .uuid(right)):
                order = withUnsafeBytes(of: left.uuid) { left in withUnsafeBytes(of: right.uuid) { Self.byteOrder(left, $0) } }
            case let (.string(left), .string(right)) where standard[position]:
                order = StandardTextOrder.compare(left, right)
            case let (left, right): order = (PredicateValue.order(left, right, options[position]) ?? .orderedSame) ?? .orderedSame
            }
            if order != .orderedSame {
                return (order == .orderedAscending) == descriptors[position].ascending ? .orderedAscending : .orderedDescending
            }
            a += 1
            b += 1
        }
        return .orderedSame
    }

    /// SQLite's order of two blobs: `memcmp` over the shorter length, then the shorter first.
    private static func byteOrder(_ left: some Collection<UInt8>, _ right: some Collection<UInt8>) -> ComparisonResult {
        if left.elementsEqual(right) { return .orderedSame }
        return left.lexicographicallyPrecedes(right) ? .orderedAscending : .orderedDescending
    }

    /// `objects` sorted, stably.
    func sorted(_ objects: [ManagedObject]) throws -> [ManagedObject] {
        let keyed = try objects.map { ($0, try keys(of: $0)) }
        return keyed.enumerated().sorted { first, second in
            switch compare(first.element.1[...], second.element.1[...]) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: first.offset < second.offset
            }
        }.map(\.element.0)
    }
}
