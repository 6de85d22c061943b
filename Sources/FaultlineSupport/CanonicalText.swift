import Foundation

/// The canonical form of text for search: what `canonical:` derived columns
/// store and what `[cd]` comparisons compare.
///
/// Folding, in order:
/// 1. Unicode compatibility mapping (NFKC): ligatures and presentation forms
///    become their letters ("ﬁ" → "fi"), full-width and half-width forms their
///    ordinary ones ("ＡＢＣ" → "ABC"), superscripts their digits.
/// 2. Case folding (Unicode default, locale-independent: "ß" → "ss", "Σ" → "σ").
/// 3. Diacritic removal: combining marks are stripped after canonical
///    decomposition ("é" → "e", "ά" → "α", "й" → "и"), in every script.
///
/// Text that is entirely ASCII takes a fast path that only lower-cases A–Z;
/// text within Latin-1 and Latin Extended-A/B (U+0000–U+024F, the accented
/// letters of most European languages) folds scalar by scalar from a table the
/// full folding computed once, which gives the same result because folding those
/// characters depends on no neighbour. Anything else takes the full path.
/// Deterministic and locale-independent, so it may back an index.
public enum CanonicalText {
    /// The canonical form of `text`. O(n).
    public static func fold(_ text: String) -> String {
        if let ascii = foldASCII(text) { return ascii }
        if let latin = foldLatin(text) { return latin }
        return foldFully(text)
    }

    /// The full folding: NFKC, then case and diacritic (and width) folding.
    static func foldFully(_ text: String) -> String {
        text.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Scalars below this fold through `latinTable`.
    static let latinLimit: UInt32 = 0x250

    /// The full folding of each scalar U+0080–U+024F, computed once.
    static let latinTable: [String] = (0x80..<latinLimit).map { value in
        Unicode.Scalar(value).map { foldFully(String(Character($0))) } ?? ""
    }

    /// Folds text made only of scalars below U+0250, or returns nil.
    static func foldLatin(_ text: String) -> String? {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                result.unicodeScalars.append(value &- 0x41 < 26 ? Unicode.Scalar(UInt8(value | 0x20)) : scalar)
            } else if value < latinLimit {
                result += latinTable[Int(value - 0x80)]
            } else {
                return nil
            }
        }
        return result
    }

    /// Lower-cases ASCII text in one pass, or returns nil when `text` holds any
    /// non-ASCII byte.
    @inline(__always)
    static func foldASCII(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var needsChange = false
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte &- 0x41 < 26 { needsChange = true }
            }
            if !needsChange { return String(decoding: bytes, as: UTF8.self) }
            return String(unsafeUninitializedCapacity: bytes.count) { output in
                for (index, byte) in bytes.enumerated() {
                    output[index] = byte &- 0x41 < 26 ? byte | 0x20 : byte
                }
                return bytes.count
            }
        }
    }
}
