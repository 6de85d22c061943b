import FaultlinePredicate

extension AttributeValue {
    /// The value as the predicate evaluator sees it.
    var predicateValue: PredicateValue {
        switch self {
        case .null, .composite: .null
        case .integer(let value): .int(value)
        case .double(let value): .double(value)
        case .decimal(let value): .decimal(value)
        case .string(let value): .string(value)
        case .bool(let value): .bool(value)
        case .date(let value): .date(value)
        case .data(let value): .data(value)
        case .uuid(let value): .uuid(value)
        case .uri(let value): .string(value.absoluteString)
        }
    }
}
