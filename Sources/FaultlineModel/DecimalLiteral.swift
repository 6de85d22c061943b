import Foundation

extension Decimal {
    /// A decimal number from its whole text, exactly (never through `Double`):
    /// `-1000.25`, `1e3`, `.5`. Nil for anything else — `Decimal(string:)`
    /// alone reads a number's prefix (`2_147` as 2, `1.5abc` as 1.5).
    public init?(exactLiteral text: String) {
        guard text.wholeMatch(of: /[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?/) != nil,
              let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN else { return nil }
        self = value
    }
}
