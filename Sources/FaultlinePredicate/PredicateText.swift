import FaultlineSupport
import Foundation

/// String comparison for the evaluator, under the `[c]`/`[d]` options.
///
/// Both sides are folded first: `[cd]` is `CanonicalText.fold` (what canonical
/// columns store), `[c]` alone is Foundation's case folding, `[d]` alone its
/// diacritic folding. Folded strings then compare by Unicode scalar values, the
/// same order as SQLite's BINARY collation over UTF-8 (so "e\u{301}" and "é"
/// differ unless `[d]` or `[cd]` folds them). `LIKE` and `?` count Unicode
/// scalars. `MATCHES` is an ICU regular expression that must match the whole
/// string: `[c]` makes it case-insensitive, `[d]` folds diacritics out of the
/// string and the pattern.
@usableFromInline
package enum PredicateText {
    /// `@inlinable`: the SQL folding functions call it once per row, and the
    /// in-memory sort once per comparison, from other modules.
    @inlinable
    package static func fold(_ text: String, _ options: PredicateComparisonOptions) -> String {
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (true, true): CanonicalText.fold(text)
        case (true, false): text.folding(options: .caseInsensitive, locale: nil)
        case (false, true): text.folding(options: .diacriticInsensitive, locale: nil)
        case (false, false): text
        }
    }

    @inlinable
    static func equal(_ left: String, _ right: String) -> Bool {
        left.utf8.elementsEqual(right.utf8)
    }

    /// Scalar-value order, identical to UTF-8 byte order.
    @inlinable
    static func order(_ left: String, _ right: String) -> ComparisonResult {
        if equal(left, right) { return .orderedSame }
        return left.utf8.lexicographicallyPrecedes(right.utf8) ? .orderedAscending : .orderedDescending
    }

    /// CONTAINS, BEGINSWITH, ENDSWITH or LIKE of two texts already folded,
    /// exactly as the evaluator tests them; nil for another operator. The
    /// store function behind a pattern read from a column, for values SQLite's
    /// own `substr`, `length` and GLOB would read only up to a NUL character.
    package static func test(_ operation: PredicateOperator, _ text: String, _ part: String) -> Bool? {
        switch operation {
        case .contains: contains(text, part)
        case .beginsWith: hasPrefix(text, part)
        case .endsWith: hasSuffix(text, part)
        case .like: like(text, part)
        default: nil
        }
    }

    static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        text.utf8.starts(with: prefix.utf8)
    }

    static func hasSuffix(_ text: String, _ suffix: String) -> Bool {
        text.utf8.reversed().starts(with: suffix.utf8.reversed())
    }

    /// Whether `needle` occurs in `text`; the empty string occurs in every text. O(n·m).
    static func contains(_ text: String, _ needle: String) -> Bool {
        let haystack = Array(text.utf8), pattern = Array(needle.utf8)
        guard pattern.count <= haystack.count else { return false }
        guard !pattern.isEmpty else { return true }
        for start in 0...(haystack.count - pattern.count)
        where haystack[start] == pattern[0] && haystack[start..<start + pattern.count].elementsEqual(pattern) {
            return true
        }
        return false
    }

    /// `LIKE`: `*` matches any run of scalars, `?` one scalar, everything else
    /// itself; the whole text must match. O(n·m) worst case, no recursion.
    static func like(_ text: String, _ pattern: String) -> Bool {
        let text = Array(text.unicodeScalars), pattern = Array(pattern.unicodeScalars)
        var t = 0, p = 0
        var starPattern: Int?, starText = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == text[t]) {
                t += 1
                p += 1
            } else if p < pattern.count, pattern[p] == "*" {
                starPattern = p
                starText = t
                p += 1
            } else if let star = starPattern {
                starText += 1
                t = starText
                p = star + 1
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// A LIKE pattern as the SQLite GLOB pattern meaning the same: `*` and `?`
    /// are already GLOB's, only `[` must be bracketed. Here, beside `like`, so
    /// the SQL function and the compiler share the evaluator's reading of LIKE.
    package static func glob(like pattern: String) -> String {
        pattern.replacingOccurrences(of: "[", with: "[[]")
    }

    static func isValidRegularExpression(_ pattern: String) -> Bool {
        (try? NSRegularExpression(pattern: pattern)) != nil
    }

    /// Whether `pattern` matches the whole of `text`. Throws
    /// `invalidRegularExpression` for a pattern ICU rejects.
    package static func matches(_ text: String, _ pattern: String, _ options: PredicateComparisonOptions) throws(FetchPredicateError) -> Bool {
        let diacritics: PredicateComparisonOptions = options.intersection(.diacriticInsensitive)
        let text = fold(text, diacritics), pattern = fold(pattern, diacritics)
        // The pattern compiles alone first, so its parentheses balance and the
        // wrapper cannot change its meaning. A pattern that ends inside a
        // `(?x)` line comment or a `\Q` quotation swallows the wrapper's `)`,
        // so that form fails to compile; a newline or `\E` then closes it.
        let flags: NSRegularExpression.Options = options.contains(.caseInsensitive) ? [.caseInsensitive] : []
        guard isValidRegularExpression(pattern),
            let expression = ["", "\n", "\\E"].lazy.compactMap({
                try? NSRegularExpression(pattern: "(?:\(pattern)\($0))\\z", options: flags)
            }).first
        else {
            throw .invalidRegularExpression(offset: nil, pattern: pattern)
        }
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return expression.firstMatch(in: text, options: [.anchored], range: range) != nil
    }
}
