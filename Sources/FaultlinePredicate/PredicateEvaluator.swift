/// Evaluates a syntax tree in memory against one subject: for unsaved objects
/// and for tests, with the semantics the SQL compiler must reproduce.
///
/// Invariants:
/// 1. The result depends only on the tree, the subject's values and the bound
///    subquery variables; evaluation has no side effects.
/// 2. Recursion follows the tree; `depth` counts its nesting as the parser
///    does, so a tree built in code deeper than `PredicateDepth.limit` throws
///    `nestingTooDeep` instead of exhausting the stack.
/// 3. A key path that crosses a to-many yields the flattened collection of the
///    values reached, each object once with its count of paths
///    (`PredicateCollection`), so a hop costs the objects reached and a path
///    is linear in its length; nil along a path yields nil (`author.name` is
///    nil when `author` is).
/// 4. Key paths without `$` inside a SUBQUERY start from the subject the whole
///    predicate is evaluated against; `$variable` paths start from the element.
package struct PredicateEvaluator {
    let subject: any PredicateSubject
    private(set) var variables: [String: PredicateResolved] = [:]

    package init(subject: any PredicateSubject) {
        self.subject = subject
    }

    /// Short-circuits AND and OR from left to right, so an error in a term
    /// after the deciding one is not reported.
    package func evaluate(_ node: PredicateNode, depth: Int = 0) throws -> Bool {
        switch node {
        case .constant(let value):
            return value
        case .not(let operand):
            return try !evaluate(operand, depth: PredicateDepth.of(operand, in: node, at: depth))
        case .and(let terms):
            for term in terms where try !evaluate(term, depth: PredicateDepth.of(term, in: node, at: depth)) { return false }
            return true
        case .or(let terms):
            for term in terms where try evaluate(term, depth: PredicateDepth.of(term, in: node, at: depth)) { return true }
            return false
        case .comparison(let comparison):
            return try evaluate(comparison, depth: depth)
        }
    }

    package func resolve(_ expression: FetchExpression, depth: Int = 0) throws -> PredicateResolved {
        switch expression {
        case .value(let value):
            return .value(value)
        case .keyPath(let path):
            return try resolve(path)
        case .list(let elements):
            let inner = try PredicateDepth.deeper(depth)
            var resolved = PredicateCollection()
            for element in elements { resolved.append(try resolve(element, depth: inner), paths: 1) }
            return .collection(resolved)
        case .aggregate(let aggregate, let collection, let keyPath):
            return try self.aggregate(aggregate, of: try resolve(collection, depth: depth), keyPath: keyPath)
        case .subquery(let collection, let variable, let predicate):
            let inner = try PredicateDepth.deeper(depth)
            return try subquery(try resolve(collection, depth: inner), variable: variable, predicate: predicate, depth: inner)
        case .function(.element, let arguments) where arguments.count == 2:
            let inner = try PredicateDepth.deeper(depth)
            guard case .value(let position) = try resolve(arguments[1], depth: inner),
                  case .int(let index) = PredicateFunctionEvaluation.number(position) ?? .null else {
                throw FetchPredicateError.functionArgument(function: PredicateFunction.element.rawValue, expected: "an integer index", found: "value")
            }
            let elements: [PredicateResolved]
            switch try resolve(arguments[0], depth: inner) {
            case .collection(let collection): elements = collection.elements
            case .value(.array(let values)): elements = values.map { .value($0) }
            case .value(.null): return .value(.null)
            case let other:
                throw FetchPredicateError.functionArgument(
                    function: PredicateFunction.element.rawValue, expected: "a collection", found: other.kindName)
            }
            return PredicateFunctionEvaluation.position(index, count: elements.count).map { elements[$0] } ?? .value(.null)
        case .function(let function, let arguments):
            let inner = try PredicateDepth.deeper(depth)
            var values: [PredicateValue] = []
            for argument in arguments {
                guard case .value(let value) = try resolve(argument, depth: inner) else {
                    throw FetchPredicateError.functionNeedsValue(function: function.rawValue, argument: argument.description)
                }
                values.append(value)
            }
            return .value(try PredicateFunctionEvaluation.apply(function, values))
        case .conditional(let predicate, let then, let otherwise):
            let inner = try PredicateDepth.deeper(depth)
            return try resolve(try evaluate(predicate, depth: inner) ? then : otherwise, depth: inner)
        }
    }

    private func resolve(_ path: PredicateKeyPath) throws -> PredicateResolved {
        var start = PredicateResolved.object(subject)
        if let variable = path.variable {
            guard let bound = variables[variable] else { throw FetchPredicateError.unsubstitutedVariable(name: variable) }
            start = bound
        }
        return try walk(start, path.components)
    }

    /// Follows `keys` from `start` (invariant 3).
    func walk(_ start: PredicateResolved, _ keys: [String]) throws -> PredicateResolved {
        var current = start
        for key in keys { current = try step(current, key) }
        return current
    }

    private func step(_ current: PredicateResolved, _ key: String) throws -> PredicateResolved {
        switch current {
        case .object(let object):
            return PredicateResolved(try object.predicateValue(forKey: key))
        case .value(.null):
            return .value(.null)
        case .value(let value):
            throw FetchPredicateError.notAnObject(key: key, found: value.kindName)
        case .collection(let collection):
            var reached = PredicateCollection()
            for (element, paths) in collection.counted {
                switch try step(element, key) {
                case .collection(let inner):
                    for (next, more) in inner.counted { reached.append(next, paths: PredicateCollection.multiplying(paths, more)) }
                case let single:
                    reached.append(single, paths: paths)
                }
            }
            return .collection(reached)
        }
    }

    /// The elements of `collection` for which `predicate` holds with
    /// `$variable` bound to the element.
    private func subquery(
        _ collection: PredicateResolved, variable: String, predicate: PredicateNode, depth: Int
    ) throws -> PredicateResolved {
        guard let elements = collection.counted else {
            throw FetchPredicateError.modifierNeedsCollection(modifier: "SUBQUERY", found: collection.kindName)
        }
        var inner = self
        var matches = PredicateCollection()
        for (element, paths) in elements.counted {
            inner.variables[variable] = element
            if try inner.evaluate(predicate, depth: depth) { matches.append(element, paths: paths) }
        }
        return .collection(matches)
    }
}
