import Foundation

extension Decimal {
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// The decimal of `double`'s shortest round-trip text (`String(double)`:
    /// `0.1` is 0.1, not the binary fraction's 55 digits). Nil for NaN, an
    /// infinity, or a magnitude past `Decimal`'s (about 3.4e165); a magnitude
    /// below its smallest exponent (1e-128) loses the digits past it, toward
    /// zero.
    ///
    /// `Decimal(string:)` alone refuses a text whose exponent does not fit a
    /// decimal exponent as written (`1.5e+129` is 15 × 10^128, one past its
    /// largest), though the value fits with more mantissa digits
    /// (150 × 10^127).
    package init?(shortestOf double: Double) {
        guard double.isFinite else { return nil }
        let text = String(double)
        if let value = Decimal(string: text, locale: Self.posix) {
            self = value
            return
        }
        var mantissa = Substring(text)
        var exponent = 0
        if let marker = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let power = Int(text[text.index(after: marker)...]) else { return nil }
            exponent = power
            mantissa = text[..<marker]
        }
        let negative = mantissa.first == "-"
        if negative { mantissa = mantissa.dropFirst() }
        var digits = ""
        var inFraction = false
        for character in mantissa {
            if character == "." {
                inFraction = true
                continue
            }
            if inFraction { exponent -= 1 }
            if digits.isEmpty, character == "0" { continue }
            digits.append(character)
        }
        // A decimal's mantissa holds up to 2^128 - 1 (39 digits), its exponent -128...127.
        while exponent > 127, digits.count < 39 {
            digits.append("0")
            exponent -= 1
        }
        while exponent < -128, !digits.isEmpty {
            digits.removeLast()
            exponent += 1
        }
        guard !digits.isEmpty else {
            self = 0
            return
        }
        guard exponent <= 127, let value = Decimal(string: (negative ? "-" : "") + digits + "e" + String(exponent), locale: Self.posix)
        else { return nil }
        self = value
    }
}
