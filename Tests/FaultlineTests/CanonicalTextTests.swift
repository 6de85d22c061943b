import Testing
@testable import FaultlineSupport

/// Canonical text folds case, diacritics and compatibility forms, the same way
/// on the ASCII fast path and the full path.
@Suite("Canonical text")
struct CanonicalTextTests {
    @Test("Folding examples across scripts and compatibility forms", arguments: [
        ("Café Crème", "cafe creme"),
        ("CAFÉ", "cafe"),
        ("naïve Résumé", "naive resume"),
        ("ﬁnance", "finance"),
        ("ＡＢＣ１２３", "abc123"),
        ("Straße", "strasse"),
        ("Ελληνικά", "ελληνικα"),
        ("Йошкар-Ола", "иошкар-ола"),
        ("x²", "x2"),
        ("", ""),
        ("already folded", "already folded"),
        ("MiXeD 123 !?", "mixed 123 !?"),
    ])
    func examples(input: String, expected: String) {
        #expect(CanonicalText.fold(input) == expected)
    }

    @Test("The ASCII fast path agrees with the full folding on every ASCII character")
    func asciiFastPathAgrees() {
        let ascii = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        let fast = CanonicalText.foldASCII(ascii)
        let full = ascii.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        #expect(fast == full)
        #expect(CanonicalText.foldASCII("é") == nil)
    }

    @Test("The Latin table path agrees with the full folding on every scalar it covers and on mixed text")
    func latinPathAgrees() {
        for value in UInt32(0x80)..<CanonicalText.latinLimit {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "Ab" + String(Character(scalar)) + "Z"
            #expect(CanonicalText.foldLatin(text) == CanonicalText.foldFully(text), "U+\(String(value, radix: 16))")
        }
        for text in ["Café Crème brûlée", "ĲSSELMEER Øresund", "Dvořák ǅ", "naïve façade"] {
            #expect(CanonicalText.foldLatin(text) == CanonicalText.foldFully(text))
        }
        #expect(CanonicalText.foldLatin("ﬁ") == nil)
        #expect(CanonicalText.foldLatin("e\u{301}") == nil)
    }

    @Test("Folding is idempotent")
    func idempotent() {
        for text in ["Café Crème", "ﬁ", "ＡＢＣ", "Straße", "Йошкар"] {
            let once = CanonicalText.fold(text)
            #expect(CanonicalText.fold(once) == once)
        }
    }

    @Test("Folding UTF-8 bytes appends the bytes of the folded text, for ill-formed and beyond-Latin input too")
    func bytePathAgrees() {
        let texts = ["Café Crème brûlée", "ĲSSELMEER Øresund", "ﬁnance", "Straße ﬁ", "Ελληνικά", "MiXeD 123", "", "é",
                     "\u{24F}", "a\u{250}"]
        // Truncated, overlong, invalid and lone continuation bytes, and a
        // Latin sequence cut off before a fallback.
        let illFormed: [[UInt8]] = [[0x41, 0xC3], [0xC0, 0x80, 0x41], [0xFF], [0x80, 0x42], [0xC3, 0xA9, 0xE2, 0x82]]
        for input in texts.map({ Array($0.utf8) }) + illFormed {
            var output = Array("kept ".utf8)
            input.withUnsafeBufferPointer { CanonicalText.appendFolded($0, to: &output) }
            let expected = "kept " + CanonicalText.fold(String(decoding: input, as: UTF8.self))
            #expect(output == Array(expected.utf8), "\(input)")
        }
    }
}
