import FaultlinePredicate
import FaultlineSQLite
import FaultlineSupport
import Foundation

/// The SQL functions a store's triggers call, registered on every connection
/// that opens a store.
///
/// `NSCoreDataNow()` keeps Core Data's own name (its derived-attribute triggers
/// call it), so stores written by either side accept writes from the other.
/// The folding functions have Faultline names: Core Data's equivalents are not
/// documented.
public enum StoreFunctions {
    public static let canonical = "FAULTLINE_CANONICAL"
    public static let lowercase = "FAULTLINE_LOWERCASE"
    public static let uppercase = "FAULTLINE_UPPERCASE"
    public static let now = "NSCoreDataNow"
    /// `[c]` alone: Foundation's case folding, as the predicate evaluator folds.
    public static let foldCase = "FAULTLINE_FOLD_CASE"
    /// `[d]` alone: Foundation's diacritic folding, as the predicate evaluator folds.
    public static let foldDiacritics = "FAULTLINE_FOLD_DIACRITICS"
    /// `FAULTLINE_MATCHES(text, pattern, options)`: MATCHES, the whole string
    /// against an ICU regular expression; `options` is the raw value of the
    /// comparison's [c]/[d] options. 1, 0, or NULL for nil text or a bad pattern.
    public static let matches = "FAULTLINE_MATCHES"
    /// `FAULTLINE_LIKE_GLOB(pattern)`: a LIKE pattern read from a column, as the
    /// GLOB pattern it means (`*` and `?` as they are, `[` literal).
    public static let likeGlob = "FAULTLINE_LIKE_GLOB"
    /// `FAULTLINE_TEXT_TEST(operator, text, part)`: CONTAINS, BEGINSWITH,
    /// ENDSWITH or LIKE (`operator` is its format text) of two folded texts as
    /// the evaluator tests them, NUL characters included; NULL for nil text.
    public static let textTest = "FAULTLINE_TEXT_TEST"
    /// The collating sequence of a `localizedStandard` sort (`StandardTextOrder`).
    public static let standardCollation = "FAULTLINE_STANDARD"

    /// Registers every function on `connection`.
    public static func register(on connection: Connection) throws {
        try connection.createTextFunction(canonical, utf8: CanonicalText.appendFolded)
        try connection.createTextFunction(lowercase) { $0.lowercased() }
        try connection.createTextFunction(uppercase) { $0.uppercased() }
        try connection.createFunction(foldCase, argumentCount: 1) { arguments in
            arguments.string(at: 0).map { .text(PredicateText.fold($0, .caseInsensitive)) } ?? .null
        }
        try connection.createFunction(foldDiacritics, argumentCount: 1) { arguments in
            arguments.string(at: 0).map { .text(PredicateText.fold($0, .diacriticInsensitive)) } ?? .null
        }
        try connection.createFunction(matches, argumentCount: 3) { arguments in
            guard let text = arguments.string(at: 0), let pattern = arguments.string(at: 1) else { return .null }
            let options = PredicateComparisonOptions(rawValue: UInt8(truncatingIfNeeded: arguments.int64(at: 2)))
            return RegularExpressionCache.shared.matches(text, pattern, options).map { .integer($0 ? 1 : 0) } ?? .null
        }
        try connection.createFunction(likeGlob, argumentCount: 1) { arguments in
            arguments.string(at: 0).map { .text(PredicateText.glob(like: $0)) } ?? .null
        }
        try connection.createFunction(textTest, argumentCount: 3) { arguments in
            guard let name = arguments.string(at: 0), let operation = PredicateOperator(rawValue: name),
                  let text = arguments.string(at: 1), let part = arguments.string(at: 2),
                  let result = PredicateText.test(operation, text, part) else { return .null }
            return .integer(result ? 1 : 0)
        }
        try connection.createCollation(standardCollation, StandardTextOrder.compare)
        // Seconds since 2001-01-01 UTC, Core Data's date encoding.
        try connection.createFunction(now, argumentCount: 0, deterministic: false) { _ in
            .real(Date().timeIntervalSinceReferenceDate)
        }
    }
}
