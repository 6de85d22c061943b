/// What a key path through to-many relationships reaches: each element once,
/// with the number of paths that reach it.
///
/// Paths multiply at every to-many hop, so over a graph with cycles
/// (`friends.friends.…`) their number grows exponentially with the key path's
/// length while the objects reached stay few. Keeping each object once, with
/// its count of paths, makes a hop cost the objects reached, not the paths.
/// Quantifiers and `@min`/`@max` need only the elements; `@count`, `@sum` and
/// `@avg` weigh each by its paths, which is what the SQL's one row per path
/// computes.
///
/// Objects are merged by identity, so only subjects that are classes merge;
/// values and value-type subjects are kept as they come.
package struct PredicateCollection {
    package private(set) var elements: [PredicateResolved] = []
    /// Parallel to `elements`. `tooMany` stands for a count beyond `Int64`.
    private(set) var paths: [Int64] = []
    private var indexByObject: [ObjectIdentifier: Int] = [:]

    /// A count of paths past `Int64.max`; counting with it is an overflow.
    static let tooMany = Int64.max

    init() {}

    /// Each element reached by one path.
    init(_ elements: [PredicateResolved]) {
        for element in elements { append(element, paths: 1) }
    }

    /// Adds `count` paths reaching `element`, merged with an object already there.
    mutating func append(_ element: PredicateResolved, paths count: Int64) {
        guard let identity = element.objectIdentity else {
            elements.append(element)
            paths.append(count)
            return
        }
        if let index = indexByObject[identity] {
            paths[index] = Self.adding(paths[index], count)
            return
        }
        indexByObject[identity] = elements.count
        elements.append(element)
        paths.append(count)
    }

    /// The elements with their counts of paths.
    var counted: Zip2Sequence<[PredicateResolved], [Int64]> { zip(elements, paths) }

    static func adding(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow || a == tooMany || b == tooMany ? tooMany : sum
    }

    static func multiplying(_ a: Int64, _ b: Int64) -> Int64 {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow || a == tooMany || b == tooMany ? tooMany : product
    }
}

extension PredicateResolved {
    /// The identity an object is merged by: only a class instance has one.
    var objectIdentity: ObjectIdentifier? {
        guard case .object(let subject) = self, type(of: subject) is AnyClass else { return nil }
        return ObjectIdentifier(subject as AnyObject)
    }
}
