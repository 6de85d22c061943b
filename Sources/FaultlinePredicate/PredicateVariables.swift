/// The `$NAME`s a predicate still waits for, so a caller can refuse a
/// substitution that leaves one out before anything runs, rather than when
/// the fetch or the evaluator reaches it (`unsubstitutedVariable`).
/// A SUBQUERY's own variable is bound inside it and is not one of them.
extension FetchPredicate {
    /// The free `$VARIABLE` names, `$NAME.key` included (substituting a
    /// constant for one throws `variableWithKeyPath`).
    public var variableNames: Set<String> {
        var names: Set<String> = []
        root.collectVariables(into: &names, bound: [])
        return names
    }
}

extension PredicateNode {
    func collectVariables(into names: inout Set<String>, bound: Set<String>) {
        switch self {
        case .constant:
            break
        case .not(let operand):
            operand.collectVariables(into: &names, bound: bound)
        case .and(let terms), .or(let terms):
            for term in terms { term.collectVariables(into: &names, bound: bound) }
        case .comparison(let comparison):
            comparison.left.collectVariables(into: &names, bound: bound)
            comparison.right.collectVariables(into: &names, bound: bound)
        }
    }
}

extension FetchExpression {
    func collectVariables(into names: inout Set<String>, bound: Set<String>) {
        switch self {
        case .value:
            break
        case .keyPath(let path):
            if let name = path.variable, !bound.contains(name) { names.insert(name) }
        case .list(let elements), .function(_, let elements):
            for element in elements { element.collectVariables(into: &names, bound: bound) }
        case .aggregate(_, let collection, _):
            collection.collectVariables(into: &names, bound: bound)
        case .subquery(let collection, let variable, let predicate):
            collection.collectVariables(into: &names, bound: bound)
            predicate.collectVariables(into: &names, bound: bound.union([variable]))
        case .conditional(let predicate, let then, let otherwise):
            predicate.collectVariables(into: &names, bound: bound)
            then.collectVariables(into: &names, bound: bound)
            otherwise.collectVariables(into: &names, bound: bound)
        }
    }
}
