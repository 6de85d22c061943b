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
/// letters of most European languages) folds scalar by scalar, on its UTF-8,
/// from a table the full folding computed once, which gives the same result
/// because folding those characters depends on no neighbour. Anything else
/// takes the full path.
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

    /// Scalars below this fold through the Latin table.
    static let latinLimit: UInt32 = 0x250

    /// The full folding of each scalar U+0080–U+024F as UTF-8, computed once:
    /// scalar `v` folds to `bytes[starts[v - 0x80] ..< starts[v - 0x7F]]`.
    private static let latinFolds: (bytes: [UInt8], starts: [Int]) = {
        var bytes: [UInt8] = []
        var starts = [0]
        for value in 0x80..<latinLimit {
            if let scalar = Unicode.Scalar(value) { bytes += foldFully(String(Character(scalar))).utf8 }
            starts.append(bytes.count)
        }
        return (bytes, starts)
    }()

    /// Folds text made only of scalars below U+0250, or returns nil.
    static func foldLatin(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { utf8 -> String? in
            var output: [UInt8] = []
            output.reserveCapacity(utf8.count)
            guard appendFoldedLatin(utf8, to: &output) else { return nil }
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// Appends the canonical form of the UTF-8 bytes `utf8` to `output`: the
    /// form `fold` gives the text they decode to (ill-formed sequences
    /// replaced), without making a `String` when every scalar is below U+0250.
    public static func appendFolded(_ utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let start = output.count
        if appendFoldedLatin(utf8, to: &output) { return }
        output.removeSubrange(start...)
        output.append(contentsOf: foldFully(String(decoding: utf8, as: UTF8.self)).utf8)
    }

    /// Appends the folding of `utf8` when it is well-formed and made only of
    /// scalars below U+0250 (ASCII, and two-byte sequences led by C2–C9), byte
    /// by byte from the table; false, with `output` partly appended to, at the
    /// first byte that is not.
    static func appendFoldedLatin(_ utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> Bool {
        let folds = latinFolds
        return folds.bytes.withUnsafeBufferPointer { table in
            folds.starts.withUnsafeBufferPointer { starts in
                var index = 0
                while index < utf8.count {
                    // A run of ASCII: copied at once, then its capitals lowered in place.
                    var end = index
                    while end < utf8.count, utf8[end] < 0x80 { end &+= 1 }
                    if end > index {
                        let start = output.count
                        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[index..<end]))
                        output.withUnsafeMutableBufferPointer { folded in
                            for position in start..<folded.count { folded[position] = lowered(folded[position]) }
                        }
                        index = end
                        if index == utf8.count { break }
                    }
                    let byte = utf8[index]
                    guard byte >= 0xC2, byte <= 0xC9, index &+ 1 < utf8.count else { return false }
                    let next = utf8[index &+ 1]
                    let value = UInt32(byte & 0x1F) << 6 | UInt32(next & 0x3F)
                    guard next & 0xC0 == 0x80, value < latinLimit else { return false }
                    let slot = Int(value &- 0x80)
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: table[starts[slot]..<starts[slot &+ 1]]))
                    index &+= 2
                }
                return true
            }
        }
    }

    /// An ASCII byte lowered: A–Z become a–z, every other byte stays.
    @inline(__always)
    static func lowered(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    /// Lower-cases ASCII text in one pass, or returns nil when `text` holds any
    /// non-ASCII byte.
    @inline(__always)
    static func foldASCII(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var needsChange = false
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if lowered(byte) != byte { needsChange = true }
            }
            if !needsChange { return String(decoding: bytes, as: UTF8.self) }
            return String(unsafeUninitializedCapacity: bytes.count) { output in
                for (index, byte) in bytes.enumerated() {
                    output[index] = lowered(byte)
                }
                return bytes.count
            }
        }
    }
}
