/// One token of a format string, with the UTF-8 offset where it starts and the
/// source text it came from (for error messages).
struct PredicateToken: Sendable {
    enum Kind: Equatable, Sendable {
        /// A word: a key, or a keyword when not escaped (`#size` is escaped).
        case identifier(String, escaped: Bool)
        case string(String)
        case integer(Int64)
        case double(Double)
        /// A format specifier without its `%`: "@", "K", "d", "ld", "f", …
        case specifier(String)
        /// `$NAME`, without the `$`.
        case variable(String)
        /// `@count` and the like, without the `@`.
        case aggregate(String)
        /// One of `( ) { } [ ] , .`
        case punctuation(Unicode.Scalar)
        /// A comparison or logical operator as written: `==`, `=<`, `&&`, `!`, …
        case symbol(String)
        case end
    }

    var kind: Kind
    var offset: Int
    var text: String
    /// The uppercased word when this is an unescaped identifier, for keyword tests.
    let keyword: String?

    init(kind: Kind, offset: Int, text: String) {
        self.kind = kind
        self.offset = offset
        self.text = text
        if case .identifier(let word, escaped: false) = kind { keyword = word.uppercased() } else { keyword = nil }
    }

    /// How an error message names this token: `'AND'`, or "the end of the predicate".
    var quoted: String {
        kind == .end ? "the end of the predicate" : "'\(text)'"
    }

    func isPunctuation(_ character: Unicode.Scalar) -> Bool {
        if case .punctuation(let scalar) = kind { return scalar == character }
        return false
    }

    func isKeyword(_ words: String...) -> Bool {
        guard let keyword else { return false }
        return words.contains(keyword)
    }
}

/// The words that are syntax, not keys. A key spelled like one of them must be
/// escaped with `#` (`#size`), as in NSPredicate.
enum PredicateKeywords {
    static let reserved: Set<String> = [
        "AND", "OR", "NOT", "IN", "ALL", "ANY", "SOME", "NONE", "LIKE", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF",
        "TRUE", "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY",
        "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "CASEINSENSITIVE", "CI",
    ]

    static func isReserved(_ word: String) -> Bool {
        reserved.contains(word.uppercased())
    }

    /// Whether `text` is a plain identifier: a letter, `_` or non-ASCII
    /// character, then letters, digits, `_` or non-ASCII characters.
    static func isIdentifier(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        guard let first = bytes.next(), isIdentifierStart(first) else { return false }
        while let byte = bytes.next() {
            guard isIdentifierContinuation(byte) else { return false }
        }
        return true
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    static func isIdentifierContinuation(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
