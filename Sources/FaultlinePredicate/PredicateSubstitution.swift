/// `$VARIABLE` substitution: each bare `$NAME` with a value becomes that
/// constant. A SUBQUERY's own variable is never substituted inside it.
/// `depth` counts nesting as `PredicateDepth` does; a value's arrays count at
/// the depth of the variable it replaces.
extension PredicateNode {
    func substituting(
        _ values: [String: PredicateValue], bound: Set<String> = [], depth: Int = 0
    ) throws(FetchPredicateError) -> PredicateNode {
        switch self {
        case .constant:
            return self
        case .not(let operand):
            return .not(try operand.substituting(values, bound: bound, depth: PredicateDepth.of(operand, in: self, at: depth)))
        case .and(let terms):
            return .and(try substituting(terms, values, bound, depth))
        case .or(let terms):
            return .or(try substituting(terms, values, bound, depth))
        case .comparison(var comparison):
            comparison.left = try comparison.left.substituting(values, bound: bound, depth: depth)
            comparison.right = try comparison.right.substituting(values, bound: bound, depth: depth)
            return .comparison(comparison)
        }
    }

    private func substituting(
        _ terms: [PredicateNode], _ values: [String: PredicateValue], _ bound: Set<String>, _ depth: Int
    ) throws(FetchPredicateError) -> [PredicateNode] {
        var result: [PredicateNode] = []
        for term in terms {
            result.append(try term.substituting(values, bound: bound, depth: PredicateDepth.of(term, in: self, at: depth)))
        }
        return result
    }
}

extension FetchExpression {
    func substituting(_ values: [String: PredicateValue], bound: Set<String>, depth: Int) throws(FetchPredicateError) -> FetchExpression {
        switch self {
        case .value:
            return self
        case .keyPath(let path):
            guard let name = path.variable, !bound.contains(name), let value = values[name] else { return self }
            guard path.components.isEmpty else { throw .variableWithKeyPath(name: name) }
            _ = try PredicateDepth.deeper(depth, by: value.nestingDepth)
            return .value(value)
        case .list(let elements):
            let inner = try PredicateDepth.deeper(depth)
            var result: [FetchExpression] = []
            for element in elements { result.append(try element.substituting(values, bound: bound, depth: inner)) }
            return FetchExpression.list(result).foldingConstants()
        case .aggregate(let aggregate, let collection, let keyPath):
            return .aggregate(aggregate, of: try collection.substituting(values, bound: bound, depth: depth), keyPath: keyPath)
        case .subquery(let collection, let variable, let predicate):
            let inner = try PredicateDepth.deeper(depth)
            return .subquery(
                collection: try collection.substituting(values, bound: bound, depth: inner),
                variable: variable,
                predicate: try predicate.substituting(values, bound: bound.union([variable]), depth: inner))
        case .function(let function, let arguments):
            let inner = try PredicateDepth.deeper(depth)
            var result: [FetchExpression] = []
            for argument in arguments { result.append(try argument.substituting(values, bound: bound, depth: inner)) }
            return .function(function, result)
        case .conditional(let predicate, let then, let otherwise):
            let inner = try PredicateDepth.deeper(depth)
            return .conditional(
                try predicate.substituting(values, bound: bound, depth: inner),
                try then.substituting(values, bound: bound, depth: inner),
                try otherwise.substituting(values, bound: bound, depth: inner))
        }
    }
}
