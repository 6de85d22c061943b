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
/// Text that is entirely ASCII takes a fast path that only lower-cases A–Z,
/// which gives the same result as the full folding for ASCII input.
/// Deterministic and locale-independent, so it may back an index.
public enum CanonicalText {
    /// The canonical form of `text`. O(n).
    public static func fold(_ text: String) -> String {
        if let ascii = foldASCII(text) { return ascii }
        return text.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
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
