import Foundation

/// How a constant compares with a stored value of another kind, as Core Data
/// on SQLite compares it: Core Data binds the constant as it is (a number as a
/// number, a date as its seconds since 2001) and SQLite converts it by the
/// column's affinity before comparing ("Type Conversions Prior To
/// Comparison"). A string attribute has TEXT affinity, so `numberPlate IN
/// {9, 10}` compares '9' and '10'; a number or date attribute has NUMERIC
/// affinity, so `views == '9'` compares 9. The SQL compiler and the evaluator
/// both convert the constant with `coerce(_:)` before comparing, so a fetch
/// gives the same answer for stored rows and for unsaved objects.
///
/// Only a key path compared with a constant converts (`comparesConstant`);
/// two key paths, two constants or a computed value compare as they are.
package enum PredicateAffinity: Sendable {
    /// A string attribute.
    case text
    /// A number of any width, a Boolean or a decimal.
    case numeric
    /// A date: stored as its seconds since 2001, with NUMERIC affinity.
    case date

    /// The affinity of a stored value's kind; nil for kinds SQLite does not
    /// convert toward (UUIDs and data are BLOBs) and for nil.
    package init?(of stored: PredicateValue) {
        switch stored {
        case .string: self = .text
        case .bool, .int, .double, .decimal: self = .numeric
        case .date: self = .date
        default: return nil
        }
    }

    /// `constant` as SQLite compares it with a value of this affinity: a
    /// number or date as its text for `.text`; a well-formed number in a
    /// string as that number for `.numeric` and `.date` (any other string
    /// stays a string, unequal to every number, as in SQLite); a date as its
    /// seconds for `.numeric`, a number as a date for `.date`. Arrays convert
    /// element by element; other kinds are returned unchanged.
    package func coerce(_ constant: PredicateValue) -> PredicateValue {
        switch (self, constant) {
        case (_, .array(let values)):
            return .array(values.map(coerce))
        case (.text, .int(let integer)):
            return .string(String(integer))
        case (.text, .bool(let flag)):
            return .string(flag ? "1" : "0")
        case (.text, .double(let real)):
            return .string(PredicateFunctionEvaluation.sqliteText(real))
        case (.text, .decimal(let decimal)):
            // Bound as a double, as an `NSDecimalNumber` (objCType "d") is.
            return .string(PredicateFunctionEvaluation.sqliteText(NSDecimalNumber(decimal: decimal).doubleValue))
        case (.text, .date(let date)):
            return .string(PredicateFunctionEvaluation.sqliteText(date.timeIntervalSinceReferenceDate))
        case (.numeric, .string(let text)):
            return Self.numeric(text) ?? constant
        case (.numeric, .date(let date)):
            return .double(date.timeIntervalSinceReferenceDate)
        case (.date, .string(let text)):
            return Self.numeric(text).map(coerce) ?? constant
        case (.date, .bool), (.date, .int), (.date, .double), (.date, .decimal):
            guard let seconds = PredicateFunctionEvaluation.number(constant).flatMap(Self.seconds) else { return constant }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        default:
            return constant
        }
    }

    private static func seconds(_ number: PredicateValue) -> Double? {
        switch number {
        case .int(let integer): Double(integer)
        case .double(let real): real
        case .decimal(let decimal): NSDecimalNumber(decimal: decimal).doubleValue
        default: nil
        }
    }

    /// The number SQLite's NUMERIC affinity makes of `text`, or nil when it
    /// keeps the text: optional spaces, an optional sign, digits with an
    /// optional point (`5.`, `.5`), an optional exponent, optional spaces.
    /// No hexadecimal, `inf` or `nan`. An integer past 64 bits is a double.
    package static func numeric(_ text: String) -> PredicateValue? {
        let spaces: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D]
        let bytes = Array(text.utf8)
        var start = 0, end = bytes.count
        while start < end, spaces.contains(bytes[start]) { start += 1 }
        while end > start, spaces.contains(bytes[end - 1]) { end -= 1 }
        var index = start
        func digits() -> Int {
            let first = index
            while index < end, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if index < end, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
        var mantissa = digits(), integral = true
        if index < end, bytes[index] == 0x2E {
            index += 1
            integral = false
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if index < end, bytes[index] | 0x20 == 0x65 {
            index += 1
            integral = false
            if index < end, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
            guard digits() > 0 else { return nil }
        }
        guard index == end, let number = String(bytes: bytes[start..<end], encoding: .utf8) else { return nil }
        if integral, let integer = Int64(number.hasPrefix("+") ? String(number.dropFirst()) : number) { return .int(integer) }
        return Double(number).map(PredicateValue.double)
    }
}

extension FetchExpression {
    /// Whether this is fixed before any object is read: a value, or a list,
    /// function or aggregate of constants only (what the SQL compiler binds).
    package var isConstant: Bool {
        switch self {
        case .value: true
        case .list(let elements): elements.allSatisfy(\.isConstant)
        case .aggregate(_, let collection, _): collection.isConstant
        case .function(_, let arguments): arguments.allSatisfy(\.isConstant)
        case .keyPath, .subquery, .conditional: false
        }
    }

    /// Which side of `left op right` is a key path compared with a constant,
    /// whose stored value's affinity converts the constant; nil for any other pair.
    package static func storedSide(_ left: FetchExpression, _ right: FetchExpression) -> PredicateSide? {
        switch (left, right) {
        case (.keyPath, _) where right.isConstant: .left
        case (_, .keyPath) where left.isConstant: .right
        default: nil
        }
    }
}

/// A side of a comparison.
package enum PredicateSide: Sendable {
    case left, right
}
