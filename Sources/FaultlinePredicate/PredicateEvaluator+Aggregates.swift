import Foundation
import FaultlineSupport

/// `@count`, `@sum`, `@avg`, `@min` and `@max` over a collection.
///
/// Semantics (those of SQL's aggregates, which the compiler will emit):
/// - `@count` counts the elements, an object once per path reaching it (as
///   the SQL's rows); an empty or nil collection counts 0; more paths than
///   `Int64` holds is `arithmeticOverflow`.
/// - The others read `keyPath` from each element and skip nil values.
/// - `@sum` of nothing is the integer 0; of integers an integer (overflow
///   throws); with any double a double; with any decimal a decimal. Each
///   value counts once per path reaching it, as in `@count` and `@avg`.
/// - `@avg` of nothing is nil; of integers or doubles a double; with any
///   decimal a decimal.
/// - `@min`/`@max` of nothing is nil; values must be mutually ordered
///   (numbers, strings or dates), otherwise `typeMismatch`.
/// - Any aggregate over a to-one or a scalar throws `aggregateNeedsCollection`.
extension PredicateEvaluator {
    func aggregate(_ aggregate: PredicateAggregate, of collection: PredicateResolved, keyPath: [String]) throws -> PredicateResolved {
        guard let elements = collection.counted else {
            throw FetchPredicateError.aggregateNeedsCollection(aggregate: aggregate.rawValue, found: collection.kindName)
        }
        if aggregate == .count {
            return .value(.int(try Self.total(elements.paths, aggregate)))
        }
        var values: [PredicateValue] = [], paths: [Int64] = []
        for (element, elementPaths) in elements.counted {
            let reached = try walk(element, keyPath)
            for (item, itemPaths) in reached.counted?.counted ?? PredicateCollection([reached]).counted {
                switch item {
                case .value(.null): continue
                case .value(let value):
                    values.append(value)
                    paths.append(PredicateCollection.multiplying(elementPaths, itemPaths))
                case .object, .collection:
                    throw FetchPredicateError.aggregateNeedsAttribute(aggregate: aggregate.rawValue)
                }
            }
        }
        switch aggregate {
        case .count, .sum:
            return .value(try Self.sum(values, weights: paths, aggregate).value)
        case .avg:
            guard !values.isEmpty else { return .value(.null) }
            let count = Double(try Self.total(paths, aggregate))
            switch try Self.sum(values, weights: paths, aggregate) {
            case .int(let total): return .value(.double(Double(total) / count))
            case .double(let total): return .value(.double(total / count))
            case .decimal(let total): return .value(.decimal(total / Decimal(count)))
            }
        case .min, .max:
            return .value(try Self.extreme(values, largest: aggregate == .max))
        }
    }

    /// The number of paths, which must fit in `Int64`.
    private static func total(_ paths: [Int64], _ aggregate: PredicateAggregate) throws -> Int64 {
        let total = paths.reduce(0, PredicateCollection.adding)
        guard total != PredicateCollection.tooMany else {
            throw FetchPredicateError.arithmeticOverflow(aggregate: aggregate.rawValue)
        }
        return total
    }

    /// The sum of each value times the paths reaching it (`weights`).
    private static func sum(_ values: [PredicateValue], weights: [Int64], _ aggregate: PredicateAggregate) throws -> PredicateNumber {
        var numbers: [PredicateNumber] = []
        for value in values {
            guard let number = PredicateNumber(value) else {
                throw FetchPredicateError.aggregateValueKind(aggregate: aggregate.rawValue, expected: "numbers", found: value.kindName)
            }
            numbers.append(number)
        }
        if weights.contains(PredicateCollection.tooMany) {
            throw FetchPredicateError.arithmeticOverflow(aggregate: aggregate.rawValue)
        }
        let weighted = zip(numbers, weights)
        if numbers.contains(where: { if case .decimal = $0 { true } else { false } }) {
            return .decimal(weighted.reduce(Decimal(0)) { $0 + decimal($1.0) * Decimal($1.1) })
        }
        if numbers.contains(where: { if case .double = $0 { true } else { false } }) {
            return .double(weighted.reduce(0.0) { $0 + double($1.0) * Double($1.1) })
        }
        var total: Int64 = 0
        for (number, weight) in weighted {
            guard case .int(let value) = number else { continue }
            let (product, overflowed) = value.multipliedReportingOverflow(by: weight)
            let (result, overflow) = total.addingReportingOverflow(product)
            if overflowed || overflow { throw FetchPredicateError.arithmeticOverflow(aggregate: aggregate.rawValue) }
            total = result
        }
        return .int(total)
    }

    private static func decimal(_ number: PredicateNumber) -> Decimal {
        switch number {
        case .int(let value): Decimal(value)
        case .double(let value): Decimal(shortestOf: value) ?? .nan
        case .decimal(let value): value
        }
    }

    private static func double(_ number: PredicateNumber) -> Double {
        switch number {
        case .int(let value): Double(value)
        case .double(let value): value
        case .decimal(let value): NSDecimalNumber(decimal: value).doubleValue
        }
    }

    /// The smallest or largest value; NaN never wins; nil for no values.
    private static func extreme(_ values: [PredicateValue], largest: Bool) throws -> PredicateValue {
        var best = PredicateValue.null
        let operation = largest ? "@max" : "@min"
        for value in values where PredicateNumber(value)?.isNaN != true {
            guard best != .null else {
                best = value
                continue
            }
            guard let order = PredicateValue.order(value, best, []) else {
                throw FetchPredicateError.aggregateValueKind(
                    aggregate: operation, expected: "values of one ordered kind", found: "\(value.kindName) among \(best.kindName)s")
            }
            if order == (largest ? .orderedDescending : .orderedAscending) { best = value }
        }
        return best
    }
}
