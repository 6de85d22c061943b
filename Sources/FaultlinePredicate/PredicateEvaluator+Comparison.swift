import Foundation

/// Comparisons: modifiers, then one operator on two resolved operands.
///
/// Semantics (as NSPredicate, where it defines them):
/// - `== nil` holds only for nil; `!=` is its negation.
/// - Ordering operators, BETWEEN and the string operators are false when
///   either side is nil (as SQL's NULL), and throw `typeMismatch` for kinds
///   that do not compare (a string with a number).
/// - `==` between different kinds is false, not an error (NSPredicate's isEqual:).
/// - A key path compared with a constant converts the constant by the stored
///   value's affinity first (`PredicateAffinity`), as the SQL store does:
///   `numberPlate == 9` holds for "9", where NSPredicate in memory says no.
/// - An object equals an object ID argument when its `predicateObjectID` is it.
/// - `IN`: membership in a collection, or a substring of a string right side.
///   `CONTAINS`: a substring, or membership when the left side is a collection.
/// - A to-many left side without ANY/ALL/NONE throws `collectionNeedsModifier`,
///   except for CONTAINS.
extension PredicateEvaluator {
    func evaluate(_ comparison: PredicateComparison, depth: Int) throws -> Bool {
        let left = try resolve(comparison.left, depth: depth)
        let right = try resolve(comparison.right, depth: depth)
        let operation = comparison.operation, options = comparison.options
        let stored = FetchExpression.storedSide(comparison.left, comparison.right)
        switch comparison.modifier {
        case .direct:
            return try test(left, operation, options, right, stored)
        case .any:
            for element in try quantified(left, comparison.modifier)
            where try test(element, operation, options, right, stored) {
                return true
            }
            return false
        case .all:
            for element in try quantified(left, comparison.modifier)
            where try !test(element, operation, options, right, stored) {
                return false
            }
            return true
        case .none:
            for element in try quantified(left, comparison.modifier)
            where try test(element, operation, options, right, stored) {
                return false
            }
            return true
        }
    }

    private func quantified(_ operand: PredicateResolved, _ modifier: PredicateModifier) throws -> [PredicateResolved] {
        guard let elements = operand.elements else {
            throw FetchPredicateError.modifierNeedsCollection(modifier: modifier.rawValue, found: operand.kindName)
        }
        return elements
    }

    private func test(
        _ left: PredicateResolved, _ operation: PredicateOperator, _ options: PredicateComparisonOptions,
        _ right: PredicateResolved, _ stored: PredicateSide?
    ) throws -> Bool {
        let symbol = operation.rawValue
        if operation == .contains, case .collection(let collection) = left {
            return try collection.elements.contains { try equal(stored, $0, right, options, symbol) }
        }
        if case .collection = left { throw FetchPredicateError.collectionNeedsModifier(operator: symbol) }
        switch operation {
        case .equal:
            return try equal(stored, left, right, options, symbol)
        case .notEqual:
            return try !equal(stored, left, right, options, symbol)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = try order(stored, left, right, options, symbol) else { return false }
            switch operation {
            case .less: return order == .orderedAscending
            case .lessOrEqual: return order != .orderedDescending
            case .greater: return order == .orderedDescending
            default: return order != .orderedAscending
            }
        case .between:
            guard !left.isNull else { return false }
            guard let bounds = right.counted, bounds.paths.reduce(0, PredicateCollection.adding) == 2,
                let lower = bounds.elements.first, let upper = bounds.elements.last
            else {
                throw FetchPredicateError.typeMismatch(operator: symbol, left: left.kindName, right: right.kindName)
            }
            guard let low = try order(stored, left, lower, options, symbol),
                let high = try order(stored, left, upper, options, symbol)
            else { return false }
            return low != .orderedAscending && high != .orderedDescending
        case .in:
            if case .value(.string(let text)) = right {
                return try strings(left, .value(.string(text)), options, symbol).map { PredicateText.contains($1, $0) } ?? false
            }
            guard !right.isNull else { return false }
            guard let elements = right.elements else {
                throw FetchPredicateError.typeMismatch(operator: symbol, left: left.kindName, right: right.kindName)
            }
            return try elements.contains { try equal(stored, left, $0, options, symbol) }
        case .contains:
            if case .value(.array(let values)) = left {
                return try values.contains { try equal(stored, .value($0), right, options, symbol) }
            }
            return try strings(left, right, options, symbol).map(PredicateText.contains) ?? false
        case .beginsWith:
            return try strings(left, right, options, symbol).map(PredicateText.hasPrefix) ?? false
        case .endsWith:
            return try strings(left, right, options, symbol).map(PredicateText.hasSuffix) ?? false
        case .like:
            return try strings(left, right, options, symbol).map(PredicateText.like) ?? false
        case .matches:
            guard case .value(.string(let text)) = left, case .value(.string(let pattern)) = right else {
                return try strings(left, right, [], symbol) != nil
            }
            return try PredicateText.matches(text, pattern, options)
        }
    }

    /// Both operands as strings folded by `options`; nil when either is nil;
    /// throws for any other kind.
    private func strings(
        _ left: PredicateResolved, _ right: PredicateResolved, _ options: PredicateComparisonOptions, _ symbol: String
    ) throws -> (String, String)? {
        if left.isNull || right.isNull { return nil }
        guard case .value(.string(let a)) = left, case .value(.string(let b)) = right else {
            throw FetchPredicateError.typeMismatch(operator: symbol, left: left.kindName, right: right.kindName)
        }
        return (PredicateText.fold(a, options), PredicateText.fold(b, options))
    }

    private func equal(
        _ stored: PredicateSide?, _ left: PredicateResolved, _ right: PredicateResolved,
        _ options: PredicateComparisonOptions, _ symbol: String
    ) throws -> Bool {
        switch Self.converted(left, right, stored) {
        case (.value(let a), .value(let b)):
            return PredicateValue.equal(a, b, options)
        case (.object(let object), .value(.objectID(let id))), (.value(.objectID(let id)), .object(let object)):
            return object.predicateObjectID == id
        case (.object(let a), .object(let b)):
            guard let first = a.predicateObjectID, let second = b.predicateObjectID else {
                throw FetchPredicateError.typeMismatch(operator: symbol, left: "object without an ID", right: "object")
            }
            return first == second
        case (.object, .value), (.value, .object):
            return false
        case (.collection, _), (_, .collection):
            throw FetchPredicateError.collectionNeedsModifier(operator: symbol)
        }
    }

    /// The order of two scalars; nil when either is nil or NaN.
    private func order(
        _ stored: PredicateSide?, _ left: PredicateResolved, _ right: PredicateResolved,
        _ options: PredicateComparisonOptions, _ symbol: String
    ) throws -> ComparisonResult? {
        guard case .value(let a) = left, case .value(let b) = right else {
            if case .collection = right { throw FetchPredicateError.collectionNeedsModifier(operator: symbol) }
            throw FetchPredicateError.typeMismatch(operator: symbol, left: left.kindName, right: right.kindName)
        }
        if a == .null || b == .null { return nil }
        let (first, second) = Self.converted(a, b, stored)
        guard let order = PredicateValue.order(first, second, options) else {
            throw FetchPredicateError.typeMismatch(operator: symbol, left: first.kindName, right: second.kindName)
        }
        return order
    }

    /// The two operands with the constant one converted by the affinity of
    /// the stored one (`stored`), as SQLite converts a bound value.
    private static func converted(
        _ left: PredicateResolved, _ right: PredicateResolved, _ stored: PredicateSide?
    ) -> (PredicateResolved, PredicateResolved) {
        guard case .value(let a) = left, case .value(let b) = right else { return (left, right) }
        let (first, second) = converted(a, b, stored)
        return (.value(first), .value(second))
    }

    private static func converted(
        _ left: PredicateValue, _ right: PredicateValue, _ stored: PredicateSide?
    ) -> (PredicateValue, PredicateValue) {
        switch stored {
        case .left?: (left, PredicateAffinity(of: left)?.coerce(right) ?? right)
        case .right?: (PredicateAffinity(of: right)?.coerce(left) ?? left, right)
        case nil: (left, right)
        }
    }
}
