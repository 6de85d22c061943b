/// How deep a predicate may nest: parentheses around AND/OR, NOT, `{…}`
/// lists, SUBQUERY, and the arrays inside an argument or a substituted value,
/// all counted together. Parsing, substitution, evaluation and the SQL
/// compiler recurse once per level, so the limit bounds their stacks.
///
/// Why 24, not SQLite's 1000: measured in a debug build, one SUBQUERY level
/// costs about 14 KB of stack to parse and as much to compile to SQL
/// (parentheses 5 KB, lists 3 KB, NOT 1 KB). Dispatch worker threads, where
/// fetches run, have 512 KB: 24 levels of SUBQUERY take about 360 KB, leaving
/// the rest to the caller's frames. An 8 MB main thread would allow about 500.
package enum PredicateDepth {
    package static let limit = 24

    /// `depth + levels`; throws `nestingTooDeep` (with `offset` into the format
    /// string, when there is one) past the limit.
    package static func deeper(_ depth: Int, by levels: Int = 1, offset: Int? = nil) throws(FetchPredicateError) -> Int {
        let next = depth + levels
        guard next <= limit else { throw .nestingTooDeep(offset: offset, limit: limit) }
        return next
    }

    /// The depth of `child`, an operand of `parent` (a NOT, AND or OR at
    /// `depth`), counted as the parser counts: a NOT is a level, and an AND or
    /// OR inside another is one (it needed parentheses), so a tree the parser
    /// built never exceeds the limit in a walk.
    package static func of(_ child: PredicateNode, in parent: PredicateNode, at depth: Int) throws(FetchPredicateError) -> Int {
        switch (parent, child) {
        case (.not, _), (.and, .and), (.and, .or), (.or, .and), (.or, .or): try deeper(depth)
        default: depth
        }
    }
}

extension PredicateValue {
    /// How many arrays nest inside one another: 0 for a scalar. Measured
    /// without recursion, so a value of any depth is measured safely.
    var nestingDepth: Int {
        var deepest = 0
        var pending: [(value: PredicateValue, depth: Int)] = [(self, 0)]
        while let (value, depth) = pending.popLast() {
            guard case .array(let elements) = value else { continue }
            deepest = max(deepest, depth + 1)
            for element in elements { pending.append((element, depth + 1)) }
        }
        return deepest
    }
}
