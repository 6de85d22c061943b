import FaultlineSupport
import Foundation

/// Compiled MATCHES patterns for the `FAULTLINE_MATCHES` SQL function, so a
/// query compiles its pattern once, not once per row.
///
/// Matching is `PredicateText.matches` exactly: [d] folds the text and the
/// pattern, [c] makes the expression case-insensitive, and the whole text must
/// match. Bounded: the cache empties when it reaches `capacity` patterns.
package final class RegularExpressionCache: Sendable {
    package static let shared = RegularExpressionCache()

    /// An immutable compiled expression; NSRegularExpression is safe to share
    /// for matching.
    private final class Entry: @unchecked Sendable {
        let expression: NSRegularExpression?
        init(_ expression: NSRegularExpression?) { self.expression = expression }
    }

    private struct Key: Hashable {
        let pattern: String
        let caseInsensitive: Bool
    }

    private let entries = Locked<[Key: Entry]>([:])
    let capacity = 256

    /// Whether `pattern` matches the whole of `text`; nil for an invalid pattern.
    package func matches(_ text: String, _ pattern: String, _ options: PredicateComparisonOptions) -> Bool? {
        let diacritics = options.intersection(.diacriticInsensitive)
        let text = PredicateText.fold(text, diacritics), pattern = PredicateText.fold(pattern, diacritics)
        let key = Key(pattern: pattern, caseInsensitive: options.contains(.caseInsensitive))
        let entry = entries.withLock { $0[key] } ?? compile(key)
        guard let expression = entry.expression else { return nil }
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return expression.firstMatch(in: text, options: [.anchored], range: range) != nil
    }

    private func compile(_ key: Key) -> Entry {
        let flags: NSRegularExpression.Options = key.caseInsensitive ? [.caseInsensitive] : []
        var expression: NSRegularExpression?
        if PredicateText.isValidRegularExpression(key.pattern) {
            expression = ["", "\n", "\\E"].lazy.compactMap {
                try? NSRegularExpression(pattern: "(?:\(key.pattern)\($0))\\z", options: flags)
            }.first
        }
        let entry = Entry(expression)
        entries.withLock { cache in
            if cache.count >= capacity { cache.removeAll() }
            cache[key] = entry
        }
        return entry
    }
}
