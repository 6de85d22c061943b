// Evaluating validation rules against a value. Pure functions, no model access,
// so the save path (a later issue) and tests call them directly.

import Foundation

/// A value that broke a validation rule.
public struct ValidationFailure: Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, with Core Data's `NSValidation…Error` codes as raw values.
    public enum Code: Int, Hashable, Sendable {
        case tooLarge = 1610
        case tooSmall = 1620
        case dateTooLate = 1630
        case dateTooSoon = 1640
        case tooLong = 1660
        case tooShort = 1670
        case patternMismatch = 1680
    }

    public let code: Code
    /// The rule that failed.
    public let rule: ValidationRule

    public var description: String { "\(code) (\(rule))" }
}

extension ValidationRule {
    /// Checks one value; `nil` when the value satisfies the rule.
    ///
    /// A rule only constrains values of its own kind (numbers, strings, dates);
    /// `.null` and values of another kind pass, since `checked()` already refuses
    /// rules that do not apply to their attribute's type. NaN fails numeric bounds.
    /// A pattern that does not compile matches nothing.
    public func check(_ value: AttributeValue) -> ValidationFailure? {
        switch self {
        case .minimumValue(let bound):
            guard let number = NumericBound(value) else { return nil }
            let order = number.compare(to: bound)
            return order == nil || order == .orderedAscending ? failure(.tooSmall) : nil
        case .maximumValue(let bound):
            guard let number = NumericBound(value) else { return nil }
            let order = number.compare(to: bound)
            return order == nil || order == .orderedDescending ? failure(.tooLarge) : nil
        case .minimumLength(let minimum):
            guard case .string(let text) = value else { return nil }
            return text.utf16.count < minimum ? failure(.tooShort) : nil
        case .maximumLength(let maximum):
            guard case .string(let text) = value else { return nil }
            return text.utf16.count > maximum ? failure(.tooLong) : nil
        case .pattern(let pattern):
            guard case .string(let text) = value else { return nil }
            return Self.matchesWhole(text, pattern: pattern) ? nil : failure(.patternMismatch)
        case .earliestDate(let earliest):
            guard case .date(let date) = value else { return nil }
            return date < earliest ? failure(.dateTooSoon) : nil
        case .latestDate(let latest):
            guard case .date(let date) = value else { return nil }
            return date > latest ? failure(.dateTooLate) : nil
        }
    }

    private func failure(_ code: ValidationFailure.Code) -> ValidationFailure {
        ValidationFailure(code: code, rule: self)
    }

    /// Full-string match, as Core Data's `MATCHES` operator. The pattern must
    /// compile on its own; it is then wrapped as `\A(?:pattern)\z` so that an
    /// alternation such as `a|ab` matches "ab" as a whole.
    static func matchesWhole(_ text: String, pattern: String) -> Bool {
        guard (try? NSRegularExpression(pattern: pattern)) != nil,
              let whole = try? NSRegularExpression(pattern: "\\A(?:\(pattern))\\z") else {
            return false
        }
        let range = NSRange(location: 0, length: text.utf16.count)
        return whole.firstMatch(in: text, options: [], range: range) != nil
    }
}

extension Array where Element == ValidationRule {
    /// Every rule the value breaks, in rule order.
    public func failures(for value: AttributeValue) -> [ValidationFailure] {
        compactMap { $0.check(value) }
    }
}
