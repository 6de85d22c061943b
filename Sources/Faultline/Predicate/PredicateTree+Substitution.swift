/// `$VARIABLE` substitution: each bare `$NAME` with a value becomes that
/// constant. A SUBQUERY's own variable is never substituted inside it.
extension PredicateNode {
    func substituting(_ values: [String: PredicateValue], bound: Set<String> = []) throws(FetchPredicateError) -> PredicateNode {
        switch self {
        case .constant:
            return self
        case .not(let operand):
            return .not(try operand.substituting(values, bound: bound))
        case .and(let terms):
            return .and(try Self.substituting(terms, values, bound))
        case .or(let terms):
            return .or(try Self.substituting(terms, values, bound))
        case .comparison(var comparison):
            comparison.left = try comparison.left.substituting(values, bound: bound)
            comparison.right = try comparison.right.substituting(values, bound: bound)
            return .comparison(comparison)
        }
    }

    private static func substituting(
        _ terms: [PredicateNode], _ values: [String: PredicateValue], _ bound: Set<String>
    ) throws(FetchPredicateError) -> [PredicateNode] {
        var result: [PredicateNode] = []
        for term in terms { result.append(try term.substituting(values, bound: bound)) }
        return result
    }
}

extension FetchExpression {
    func substituting(_ values: [String: PredicateValue], bound: Set<String>) throws(FetchPredicateError) -> FetchExpression {
        switch self {
        case .value:
            return self
        case .keyPath(let path):
            guard let name = path.variable, !bound.contains(name), let value = values[name] else { return self }
            guard path.components.isEmpty else { throw .variableWithKeyPath(name: name) }
            return .value(value)
        case .list(let elements):
            var result: [FetchExpression] = []
            for element in elements { result.append(try element.substituting(values, bound: bound)) }
            return FetchExpression.list(result).foldingConstants()
        case .aggregate(let aggregate, let collection, let keyPath):
            return .aggregate(aggregate, of: try collection.substituting(values, bound: bound), keyPath: keyPath)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: try collection.substituting(values, bound: bound),
                variable: variable,
                predicate: try predicate.substituting(values, bound: bound.union([variable])))
        }
    }
}
