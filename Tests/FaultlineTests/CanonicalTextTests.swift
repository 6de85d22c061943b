import Testing
@testable import Faultline

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

    @Test("Folding is idempotent")
    func idempotent() {
        for text in ["Café Crème", "ﬁ", "ＡＢＣ", "Straße", "Йошкар"] {
            let once = CanonicalText.fold(text)
            #expect(CanonicalText.fold(once) == once)
        }
    }
}
