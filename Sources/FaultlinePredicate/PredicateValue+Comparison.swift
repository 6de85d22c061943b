import Foundation
import FaultlineSupport

/// A number of any kind, for exact comparison across kinds.
///
/// Rules: `bool` is the integer 0 or 1. Integer and double compare exactly
/// (no rounding of the integer to a double: 2^53 + 1 > 2^53 as a double).
/// Decimal and integer compare exactly. Decimal and double compare the decimal
/// with the double's shortest round-trip decimal form ("0.1" for 0.1), which
/// is the number a user wrote. NaN is unordered: every comparison with it is
/// false except `!=`.
@usableFromInline
enum PredicateNumber {
    case int(Int64)
    case double(Double)
    case decimal(Decimal)

    @inlinable
    init?(_ value: PredicateValue) {
        switch value {
        case .bool(let flag): self = .int(flag ? 1 : 0)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .decimal(let number): self = .decimal(number)
        default: return nil
        }
    }

    var value: PredicateValue {
        switch self {
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .decimal(let number): .decimal(number)
        }
    }

    var isNaN: Bool {
        switch self {
        case .int: false
        case .double(let number): number.isNaN
        case .decimal(let number): number.isNaN
        }
    }

    /// The order of `left` and `right`, or nil when either is NaN.
    @usableFromInline
    static func compare(_ left: PredicateNumber, _ right: PredicateNumber) -> ComparisonResult? {
        switch (left, right) {
        case (.int(let a), .int(let b)):
            return order(a, b)
        case (.double(let a), .double(let b)):
            return a.isNaN || b.isNaN ? nil : order(a, b)
        case (.decimal(let a), .decimal(let b)):
            return a.isNaN || b.isNaN ? nil : order(a, b)
        case (.int(let a), .double(let b)):
            return compare(a, b)
        case (.double(let a), .int(let b)):
            return compare(b, a).map(reversed)
        case (.int(let a), .decimal(let b)):
            return compare(.decimal(Decimal(a)), .decimal(b))
        case (.decimal(let a), .int(let b)):
            return compare(.decimal(a), .decimal(Decimal(b)))
        case (.decimal(let a), .double(let b)):
            return compare(a, b)
        case (.double(let a), .decimal(let b)):
            return compare(b, a).map(reversed)
        }
    }

    /// An integer against a double, exactly.
    private static func compare(_ integer: Int64, _ double: Double) -> ComparisonResult? {
        if double.isNaN { return nil }
        // 2^63 is exactly representable; every double at or above it exceeds any Int64.
        if double >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if double < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let truncated = double.rounded(.towardZero)
        let whole = Int64(truncated)  // exact: |truncated| < 2^63, or exactly -2^63
        if integer != whole { return order(integer, whole) }
        let fraction = double - truncated
        return fraction > 0 ? .orderedAscending : fraction < 0 ? .orderedDescending : .orderedSame
    }

    /// A decimal against a double, through the double's shortest decimal form.
    private static func compare(_ decimal: Decimal, _ double: Double) -> ComparisonResult? {
        if decimal.isNaN || double.isNaN { return nil }
        if double.isInfinite { return double > 0 ? .orderedAscending : .orderedDescending }
        guard let converted = Decimal(shortestOf: double) else {
            // Past a decimal's magnitude: the double's sign decides.
            return double > 0 ? .orderedAscending : .orderedDescending
        }
        return order(decimal, converted)
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : a == b ? .orderedSame : .orderedDescending
    }

    private static func reversed(_ result: ComparisonResult) -> ComparisonResult {
        switch result {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}

extension PredicateValue {
    /// The order of two non-nil scalars of comparable kinds: numbers (any kind
    /// with any kind), strings (folded by `options`) or dates. `.some(nil)`
    /// means comparable but unordered (NaN); `nil` means the kinds do not
    /// compare, which the evaluator reports as a type mismatch.
    ///
    /// `@inlinable`: the in-memory sort of pending changes calls it once per
    /// comparison from the core.
    @inlinable
    package static func order(_ left: PredicateValue, _ right: PredicateValue, _ options: PredicateComparisonOptions) -> ComparisonResult?? {
        if let a = PredicateNumber(left), let b = PredicateNumber(right) {
            return .some(PredicateNumber.compare(a, b))
        }
        switch (left, right) {
        case (.string(let a), .string(let b)):
            return PredicateText.order(PredicateText.fold(a, options), PredicateText.fold(b, options))
        case (.date(let a), .date(let b)):
            return .some(PredicateNumber.compare(.double(a.timeIntervalSinceReferenceDate), .double(b.timeIntervalSinceReferenceDate)))
        default:
            return nil
        }
    }

    /// Equality as `==` evaluates it: nil equals only nil; numbers compare
    /// exactly across kinds; strings under `options`; arrays element by
    /// element; other kinds structurally. Values of different kinds are
    /// unequal (as NSPredicate's `isEqual:`), not an error.
    package static func equal(_ left: PredicateValue, _ right: PredicateValue, _ options: PredicateComparisonOptions) -> Bool {
        if let a = PredicateNumber(left), let b = PredicateNumber(right) {
            return PredicateNumber.compare(a, b) == .orderedSame
        }
        switch (left, right) {
        case (.string(let a), .string(let b)):
            return PredicateText.equal(PredicateText.fold(a, options), PredicateText.fold(b, options))
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options) }
        default:
            return left == right
        }
    }
}
