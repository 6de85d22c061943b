import Foundation
import FaultlineSupport

/// A function of the tree applied to constant values, in memory, with the
/// semantics `PredicateFunction` states (which the SQL compiler reproduces).
package enum PredicateFunctionEvaluation {
    package static func apply(_ function: PredicateFunction, _ values: [PredicateValue]) throws(FetchPredicateError) -> PredicateValue {
        guard values.count == function.arity else {
            throw .functionArity(function: function.rawValue, expected: function.arity, found: values.count)
        }
        if function == .now { return .date(Date()) }
        if values.contains(.null) { return .null }
        switch function {
        case .lowercase, .uppercase, .canonical:
            guard case .string(let text) = values[0] else { throw mismatch(function, values[0], "a string") }
            switch function {
            case .lowercase: return .string(text.lowercased())
            case .uppercase: return .string(text.uppercased())
            default: return .string(CanonicalText.fold(text))
            }
        case .add, .subtract, .multiply:
            return try arithmetic(function, values[0], values[1])
        case .divide, .modulus, .power:
            let (a, b) = (try real(function, values[0]), try real(function, values[1]))
            let result = switch function {
            case .divide: b == 0 ? Double.nan : a / b
            case .modulus: b == 0 ? Double.nan : fmod(a, b)
            default: Foundation.pow(a, b)
            }
            return result.isNaN ? .null : .double(result)
        case .sqrt, .ln, .log, .exp, .ceiling, .floor, .trunc:
            let a = try real(function, values[0])
            let result: Double = switch function {
            case .sqrt: a < 0 ? .nan : a.squareRoot()
            case .ln: a <= 0 ? .nan : Foundation.log(a)
            case .log: a <= 0 ? .nan : log10(a)
            case .exp: Foundation.exp(a)
            case .ceiling: a.rounded(.up)
            case .floor: a.rounded(.down)
            default: a.rounded(.towardZero)
            }
            if result.isNaN { return .null }
            // SQLite's ceil/floor/trunc keep an integer an integer.
            if [.ceiling, .floor, .trunc].contains(function), case .int(let integer) = number(values[0]) { return .int(integer) }
            return .double(result)
        case .abs:
            switch number(values[0]) {
            case .int(let integer): return integer == .min ? .double(-Double(integer)) : .int(Swift.abs(integer))
            case .double(let real): return .double(Swift.abs(real))
            default: throw mismatch(function, values[0], "a number")
            }
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
            let (a, b) = (try integer(function, values[0]), try integer(function, values[1]))
            switch function {
            case .bitwiseAnd: return .int(a & b)
            case .bitwiseOr: return .int(a | b)
            case .bitwiseXor: return .int(a ^ b)
            case .leftShift: return .int(shift(a, b))
            default: return .int(shift(a, b == .min ? .max : -b))
            }
        case .onesComplement:
            return .int(~(try integer(function, values[0])))
        case .now:
            return .date(Date())
        case .noindex:
            return values[0]
        case .element:
            guard case .array(let items) = values[0] else { throw mismatch(function, values[0], "a collection") }
            guard case .int(let index) = number(values[1]) else { throw mismatch(function, values[1], "an integer index") }
            return position(index, count: items.count).map { items[$0] } ?? .null
        case .castToString:
            switch values[0] {
            case .string: return values[0]
            case .int(let integer): return .string(String(integer))
            case .bool(let flag): return .string(flag ? "1" : "0")
            case .double(let real): return .string(sqliteText(real))
            case .decimal(let decimal): return .string(sqliteText(NSDecimalNumber(decimal: decimal).doubleValue))
            default: throw mismatch(function, values[0], "a string or a number")
            }
        case .castToNumber:
            guard let number = number(values[0]) else { throw mismatch(function, values[0], "a number or a date") }
            return number
        case .castToDate:
            guard case .date = values[0] else {
                return .date(Date(timeIntervalSinceReferenceDate: try real(function, values[0])))
            }
            return values[0]
        }
    }

    /// The position an index names among `count` elements (a negative one
    /// counts from the end: -1 is the last); nil past either end.
    package static func position(_ index: Int64, count: Int) -> Int? {
        let at = index < 0 ? Int64(count) + index : index
        return at >= 0 && at < Int64(count) ? Int(at) : nil
    }

    /// A double as SQLite writes a REAL as text (`CAST(x AS TEXT)`, TEXT
    /// affinity): `%!.15g`, whose `!` gives the mantissa a point and a digit
    /// (`15.0`, `1.0e+20`, `1.0e-05`); zero is `0.0` whatever its sign.
    static func sqliteText(_ real: Double) -> String {
        guard real.isFinite else { return real.isNaN ? "" : real > 0 ? "Inf" : "-Inf" }
        guard real != 0 else { return "0.0" }
        let text = String(format: "%.15g", real)
        guard !text.contains(".") else { return text }
        guard let exponent = text.firstIndex(of: "e") else { return text + ".0" }
        return text[..<exponent] + ".0" + text[exponent...]
    }

    /// SQLite's `<<`: a negative count shifts right (arithmetically), 64 or more gives 0 (or -1 right of a negative).
    private static func shift(_ value: Int64, _ count: Int64) -> Int64 {
        if count >= 0 { return count >= 64 ? 0 : value << count }
        return count <= -64 ? (value < 0 ? -1 : 0) : value >> -count
    }

    /// `+ - *`: integers exact (a double past 64 bits, as SQLite), doubles otherwise; a date ± a number is a date.
    private static func arithmetic(_ function: PredicateFunction, _ left: PredicateValue, _ right: PredicateValue) throws(FetchPredicateError) -> PredicateValue {
        if function != .multiply, case .date(let date) = left {
            switch right {
            case .date(let other) where function == .subtract:
                return .double(date.timeIntervalSinceReferenceDate - other.timeIntervalSinceReferenceDate)
            case .date:
                throw mismatch(function, right, "a number of seconds")
            default:
                let seconds = try real(function, right)
                return .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate + (function == .add ? seconds : -seconds)))
            }
        }
        if function == .add, case .date = right { return try arithmetic(.add, right, left) }
        if case .int(let a) = number(left), case .int(let b) = number(right) {
            let (result, overflow) = switch function {
            case .add: a.addingReportingOverflow(b)
            case .subtract: a.subtractingReportingOverflow(b)
            default: a.multipliedReportingOverflow(by: b)
            }
            if !overflow { return .int(result) }
        }
        let (a, b) = (try real(function, left), try real(function, right))
        return .double(function == .add ? a + b : function == .subtract ? a - b : a * b)
    }

    /// A number as an `int` or a `double` (booleans as 0/1, decimals and dates as doubles); nil for other kinds.
    package static func number(_ value: PredicateValue) -> PredicateValue? {
        switch value {
        case .int: value
        case .bool(let flag): .int(flag ? 1 : 0)
        case .double: value
        case .decimal(let decimal): .double(NSDecimalNumber(decimal: decimal).doubleValue)
        case .date(let date): .double(date.timeIntervalSinceReferenceDate)
        default: nil
        }
    }

    private static func real(_ function: PredicateFunction, _ value: PredicateValue) throws(FetchPredicateError) -> Double {
        switch number(value) {
        case .int(let integer): Double(integer)
        case .double(let real): real
        default: throw mismatch(function, value, "a number")
        }
    }

    /// An integer operand of a bitwise operator: a double truncated toward zero, as SQLite casts it.
    private static func integer(_ function: PredicateFunction, _ value: PredicateValue) throws(FetchPredicateError) -> Int64 {
        switch number(value) {
        case .int(let integer): return integer
        case .double(let real) where real.isFinite:
            return real >= 9.223372036854775807e18 ? .max : real <= -9.223372036854775808e18 ? .min : Int64(real.rounded(.towardZero))
        default: throw mismatch(function, value, "an integer")
        }
    }

    private static func mismatch(_ function: PredicateFunction, _ value: PredicateValue, _ expected: String) -> FetchPredicateError {
        .functionArgument(function: function.rawValue, expected: expected, found: value.kindName)
    }
}
