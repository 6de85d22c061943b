// How a declaration's validation rules differ from the model's: the one
// comparison `model validate` (over Swift sources) and a validating
// registration (over the classes themselves) share.

import Foundation

extension ValidationRule {
    /// The rule's kind as the declarations spell it (`minimumLength`, `pattern`, …).
    public var kindName: String {
        switch self {
        case .minimumValue: "minimumValue"
        case .maximumValue: "maximumValue"
        case .minimumLength: "minimumLength"
        case .maximumLength: "maximumLength"
        case .pattern: "pattern"
        case .earliestDate: "earliestDate"
        case .latestDate: "latestDate"
        }
    }

    static let kindOrder = ["minimumValue", "maximumValue", "minimumLength", "maximumLength", "pattern", "earliestDate", "latestDate"]

    /// The rule's value as a reader needs it to see a difference: a pattern
    /// quoted with every escape visible, a date as its exact reference-date interval.
    public var valueText: String {
        switch self {
        case .minimumValue(let bound), .maximumValue(let bound): bound.description
        case .minimumLength(let length), .maximumLength(let length): "\(length)"
        case .pattern(let pattern): pattern.debugDescription
        case .earliestDate(let date), .latestDate(let date):
            "\(date.timeIntervalSinceReferenceDate) s after 2001-01-01T00:00:00Z"
        }
    }

    /// Whether two rules of one kind constrain the same: numbers compared by
    /// value exactly (an `Int64` bound equals the same `Double` or `Decimal`),
    /// dates exactly, patterns byte for byte in UTF-8 (never by Unicode
    /// equivalence, and never by the language two patterns happen to accept).
    public func isSame(as other: ValidationRule) -> Bool {
        switch (self, other) {
        case let (.minimumValue(a), .minimumValue(b)), let (.maximumValue(a), .maximumValue(b)):
            a.compare(to: b) == .orderedSame
        case let (.minimumLength(a), .minimumLength(b)), let (.maximumLength(a), .maximumLength(b)):
            a == b
        case let (.pattern(a), .pattern(b)):
            a.utf8.elementsEqual(b.utf8)
        case let (.earliestDate(a), .earliestDate(b)), let (.latestDate(a), .latestDate(b)):
            a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        default:
            false
        }
    }

    /// Every rule missing from, added to or changed in `declared` against
    /// `model`, one sentence each, in a fixed order of kinds.
    public static func drift(declared: [ValidationRule], model: [ValidationRule]) -> [String] {
        var sentences: [String] = []
        for kind in kindOrder {
            let wanted = model.filter { $0.kindName == kind }
            let written = declared.filter { $0.kindName == kind }
            let unmatchedWritten = written.filter { rule in !wanted.contains { $0.isSame(as: rule) } }
            let unmatchedWanted = wanted.filter { rule in !written.contains { $0.isSame(as: rule) } }
            switch (unmatchedWanted.count, unmatchedWritten.count) {
            case (0, 0):
                continue
            case (1, 1):
                sentences.append("rule \(kind) differs: the model has \(unmatchedWanted[0].valueText), the declaration \(unmatchedWritten[0].valueText)")
            default:
                for rule in unmatchedWanted { sentences.append("rule \(kind) \(rule.valueText) is in the model, not in the declaration") }
                for rule in unmatchedWritten { sentences.append("rule \(kind) \(rule.valueText) is declared, not in the model") }
            }
        }
        return sentences
    }
}

extension NumericBound {
    /// A decimal bound from its literal text, exactly (never through `Double`),
    /// as generated declarations spell one; NaN when `text` is no number, which
    /// no model bound equals, so the drift check reports it.
    public static func decimalLiteral(_ text: String) -> NumericBound {
        .decimal(Decimal(exactLiteral: text) ?? .nan)
    }
}
