import Faultline

/// A predicate's syntax tree as indented lines, one node per line, children two
/// spaces under their parent:
///
///     AND
///       ==[cd]
///         key path name
///         string "cafe"
///       ANY >
///         key path ingredients.amount
///         integer 3
///
/// The parser bounds nesting (`nestingTooDeep`), so the recursion is bounded too.
enum PredicateTreePrinter {
    static func lines(_ node: PredicateNode) -> [String] {
        var lines: [String] = []
        append(node, depth: 0, to: &lines)
        return lines
    }

    private static func append(_ node: PredicateNode, depth: Int, to lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth)
        switch node {
        case .constant(let value):
            lines.append(indent + (value ? "TRUEPREDICATE" : "FALSEPREDICATE"))
        case .not(let operand):
            lines.append(indent + "NOT")
            append(operand, depth: depth + 1, to: &lines)
        case .and(let terms), .or(let terms):
            lines.append(indent + (node.isAnd ? "AND" : "OR"))
            for term in terms { append(term, depth: depth + 1, to: &lines) }
        case .comparison(let comparison):
            let modifier = comparison.modifier == .direct ? "" : comparison.modifier.rawValue + " "
            lines.append(indent + modifier + comparison.operation.rawValue + comparison.options.description)
            append(comparison.left, depth: depth + 1, to: &lines)
            append(comparison.right, depth: depth + 1, to: &lines)
        }
    }

    private static func append(_ expression: FetchExpression, depth: Int, to lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth)
        switch expression {
        case .value(let value):
            lines.append(indent + "\(value.kindName) \(value)")
        case .keyPath(let path):
            lines.append(indent + "key path \(path)")
        case .list(let elements):
            lines.append(indent + "list")
            for element in elements { append(element, depth: depth + 1, to: &lines) }
        case .aggregate(let aggregate, let collection, let keyPath):
            let suffix = keyPath.isEmpty ? "" : " of " + keyPath.joined(separator: ".")
            lines.append(indent + aggregate.rawValue + suffix)
            append(collection, depth: depth + 1, to: &lines)
        case .subquery(let collection, let variable, let predicate):
            lines.append(indent + "SUBQUERY $\(variable)")
            append(collection, depth: depth + 1, to: &lines)
            append(predicate, depth: depth + 1, to: &lines)
        case .function(let function, let arguments):
            lines.append(indent + (function.infix.map { "operator \($0) (\(function.rawValue))" } ?? "function \(function.rawValue)"))
            for argument in arguments { append(argument, depth: depth + 1, to: &lines) }
        case .conditional(let predicate, let then, let otherwise):
            lines.append(indent + "TERNARY")
            append(predicate, depth: depth + 1, to: &lines)
            append(then, depth: depth + 1, to: &lines)
            append(otherwise, depth: depth + 1, to: &lines)
        }
    }
}

extension PredicateNode {
    fileprivate var isAnd: Bool {
        if case .and = self { return true }
        return false
    }
}
