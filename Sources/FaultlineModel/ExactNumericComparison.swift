import FaultlineSupport
// Exact comparison between numbers of different representations, used by
// validation rules. Int64 against Int64 and Decimal against Decimal compare
// exactly; Int64 against Double compares the mathematical values (no rounding of
// the integer to Double); Double against Decimal converts the double through its
// shortest round-tripping decimal text (the number as a person wrote it).

import Foundation

extension NumericBound {
    /// How `self` compares with `other`; `nil` when either is NaN.
    public func compare(to other: NumericBound) -> ComparisonResult? {
        switch (self, other) {
        case let (.integer(a), .integer(b)):
            return Self.order(a, b)
        case let (.decimal(a), .decimal(b)):
            guard !a.isNaN, !b.isNaN else { return nil }
            return Self.order(a, b)
        case let (.integer(a), .decimal(b)):
            guard !b.isNaN else { return nil }
            return Self.order(Decimal(a), b)
        case let (.decimal(a), .integer(b)):
            guard !a.isNaN else { return nil }
            return Self.order(a, Decimal(b))
        case let (.double(a), .double(b)):
            guard !a.isNaN, !b.isNaN else { return nil }
            return Self.order(a, b)
        case let (.double(a), .integer(b)):
            return Self.compare(a, b)
        case let (.integer(a), .double(b)):
            return Self.compare(b, a).map(Self.reversed)
        case let (.double(a), .decimal(b)):
            return Self.compare(a, b)
        case let (.decimal(a), .double(b)):
            return Self.compare(b, a).map(Self.reversed)
        }
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
    }

    private static func reversed(_ result: ComparisonResult) -> ComparisonResult {
        switch result {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }

    /// Double against Int64 without rounding either.
    private static func compare(_ d: Double, _ i: Int64) -> ComparisonResult? {
        guard !d.isNaN else { return nil }
        // 2^63 is exactly representable; every Int64 lies in [-2^63, 2^63).
        if d < -9_223_372_036_854_775_808.0 { return .orderedAscending }
        if d >= 9_223_372_036_854_775_808.0 { return .orderedDescending }
        let whole = d.rounded(.towardZero)
        guard let wholeInteger = Int64(exactly: whole) else { return nil }
        if wholeInteger != i { return order(wholeInteger, i) }
        let fraction = d - whole
        return fraction > 0 ? .orderedDescending : (fraction < 0 ? .orderedAscending : .orderedSame)
    }

    /// Double against Decimal through the double's shortest decimal text.
    private static func compare(_ d: Double, _ decimal: Decimal) -> ComparisonResult? {
        guard !d.isNaN, !decimal.isNaN else { return nil }
        if d == .infinity { return .orderedDescending }
        if d == -.infinity { return .orderedAscending }
        if let exact = Decimal(shortestOf: d) {
            return order(exact, decimal)
        }
        // Outside Decimal's range: the sign of the double decides.
        return d > 0 ? .orderedDescending : .orderedAscending
    }
}
