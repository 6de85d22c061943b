/// A function of `NSExpression`'s function syntax (`lowercase:(name)`,
/// `now()`), or an arithmetic or bitwise operator: Foundation represents
/// `a + b` as the function `add:to:` of `a` and `b`, and so does this tree.
///
/// Semantics, the same in memory and in SQL (the agreement tests hold both to it):
/// - `+ - *` on integers stay integers, and become doubles past 64 bits (as
///   SQLite does); any double makes a double.
/// - `/` is always a floating division (`7 / 2` is 3.5), as Foundation's
///   `divide:by:`; SQLite's integer division is not used.
/// - `modulus:by:` is `fmod` (SQLite's `mod()`), `raise:toPower:` and `**`
///   `pow`, and `sqrt:`, `ln:`, `log:` (base 10), `exp:`, `ceiling:`,
///   `floor:`, `trunc:` the C functions: doubles.
/// - A division or modulus by zero, a square root or logarithm outside its
///   domain, and any NULL operand give NULL (where Foundation would raise or
///   give NaN), so such a comparison is false.
/// - A date in arithmetic is its seconds since 2001-01-01 (the stored form):
///   a date plus or minus a number is a date, a date minus a date a number.
/// - Bitwise operators take integers (doubles truncated toward zero, as SQLite
///   casts them); a shift by 64 or more gives 0, a negative shift shifts the
///   other way.
public enum PredicateFunction: String, Hashable, Sendable, CaseIterable {
    case add = "add:to:"
    case subtract = "from:subtract:"
    case multiply = "multiply:by:"
    case divide = "divide:by:"
    case modulus = "modulus:by:"
    case power = "raise:toPower:"
    case sqrt = "sqrt:"
    case ln = "ln:"
    case log = "log:"
    case exp = "exp:"
    case ceiling = "ceiling:"
    case floor = "floor:"
    case trunc = "trunc:"
    case abs = "abs:"
    case bitwiseAnd = "bitwiseAnd:with:"
    case bitwiseOr = "bitwiseOr:with:"
    case bitwiseXor = "bitwiseXor:with:"
    case leftShift = "leftshift:by:"
    case rightShift = "rightshift:by:"
    case onesComplement = "onesComplement:"
    case lowercase = "lowercase:"
    case uppercase = "uppercase:"
    /// Lower-cased with diacritics removed: the form of a `canonical:` search column.
    case canonical = "canonical:"
    case now = "now"
    /// `CAST(x, "NSNumber")` of an operand that is not a literal: a number as
    /// it is, a date as its seconds since 2001.
    case castToNumber = "CAST:NSNumber"
    /// `CAST(x, "NSDate")` of an operand that is not a literal: a number of
    /// seconds since 2001 as a date.
    case castToDate = "CAST:NSDate"
    /// `CAST(x, "NSString")`: a string as it is; an integer in decimal; a
    /// double as SQLite writes a REAL as text (15 significant digits, `.0`
    /// when integral), so a fetch and memory agree.
    case castToString = "CAST:NSString"
    /// `collection[FIRST]`, `[LAST]`, `[n]`: Foundation's `objectFrom:withIndex:`
    /// (an index of -1 is LAST); nil past either end.
    case element = "objectFrom:withIndex:"
    /// `noindex:(x)`: Core Data's hint that the store should not use an index
    /// for `x`. The value is `x`; in SQL it is `+x`, SQLite's documented way
    /// to keep a term from using an index.
    case noindex = "noindex:"

    /// How many arguments it takes: one per `:` of its name.
    public var arity: Int {
        switch self {
        case .castToNumber, .castToDate, .castToString: 1
        default: rawValue.filter { $0 == ":" }.count
        }
    }

    /// How tightly the infix operator binds, higher tighter: `|` 1, `^` 2,
    /// `&` 3, shifts 4, `+ -` 5, `* /` 6, `**` 7 (right-associative).
    public var precedence: Int? {
        switch self {
        case .bitwiseOr: 1
        case .bitwiseXor: 2
        case .bitwiseAnd: 3
        case .leftShift, .rightShift: 4
        case .add, .subtract: 5
        case .multiply, .divide: 6
        case .power: 7
        default: nil
        }
    }

    /// The type a CAST names, for the casts.
    public var castType: String? {
        switch self {
        case .castToNumber: "NSNumber"
        case .castToDate: "NSDate"
        case .castToString: "NSString"
        default: nil
        }
    }

    /// The infix operator that spells it in a format string, for binary operators.
    public var infix: String? {
        switch self {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        case .divide: "/"
        case .power: "**"
        case .bitwiseAnd: "&"
        case .bitwiseOr: "|"
        case .bitwiseXor: "^"
        case .leftShift: "<<"
        case .rightShift: ">>"
        default: nil
        }
    }

    /// The functions of Foundation's list that Faultline refuses, with why.
    public static let refused: [String: String] = [
        "median:": "SQLite has no median aggregate",
        "mode:": "SQLite has no mode aggregate",
        "stddev:": "SQLite has no standard deviation aggregate",
        "random": "a random number differs between the store and memory",
        "random:": "a random element differs between the store and memory",
        "randomn:": "a random number differs between the store and memory",
        "distinct:": "a collection of distinct values is not a value to compare",
        "castObject:toType:": "use CAST(value, 'type')",
        "FUNCTION": "FUNCTION calls an Objective-C method on the object, which neither a Linux process nor SQLite can run",
    ]

    /// The collection functions that are the key path aggregates in another spelling.
    public static let aggregates: [String: PredicateAggregate] = [
        "sum:": .sum, "count:": .count, "min:": .min, "max:": .max, "average:": .avg,
    ]
}
