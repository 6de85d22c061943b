/// Splits a format string into tokens, over its UTF-8 bytes.
///
/// Invariants: every call to `nextToken` consumes at least one byte or returns
/// `.end`, so tokenizing terminates in O(n); every token's `offset` is the
/// UTF-8 offset of its first byte; no input traps (numbers out of range,
/// unterminated strings and bad escapes are `FetchPredicateError`s).
struct PredicateLexer {
    let bytes: [UInt8]
    var position = 0

    init(_ source: String) {
        bytes = Array(source.utf8)
    }

    /// All tokens, ending with one `.end`. O(n) in the length of the source.
    static func tokenize(_ source: String) throws(FetchPredicateError) -> [PredicateToken] {
        var lexer = PredicateLexer(source)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.nextToken()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    /// Longest first, so that `==` wins over `=`.
    private static let symbols = ["==", "=<", "=>", "!=", "<>", "<=", ">=", "&&", "||", "**", "<<", ">>",
                                  "=", "!", "<", ">", "+", "-", "*", "/", "&", "|", "^", "~"]
        .map { Array($0.utf8) }
    private static let specifiers = ["lld", "lli", "llu", "ld", "li", "lu", "lf", "@", "K", "d", "i", "u", "f", "s"]
        .map { Array($0.utf8) }

    func byte(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    func text(from start: Int) -> String {
        String(decoding: bytes[start..<position], as: UTF8.self)
    }

    func token(_ kind: PredicateToken.Kind, from start: Int) -> PredicateToken {
        PredicateToken(kind: kind, offset: start, text: text(from: start))
    }

    private mutating func nextToken() throws(FetchPredicateError) -> PredicateToken {
        while let byte = byte(at: position), byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
            position += 1
        }
        let start = position
        guard let first = byte(at: position) else {
            return PredicateToken(kind: .end, offset: start, text: "")
        }
        switch first {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try lexString(quote: first)
        case _ where PredicateKeywords.isDigit(first):
            return try lexNumber()
        case UInt8(ascii: "-") where byte(at: position + 1).map(PredicateKeywords.isDigit) == true:
            return try lexNumber()
        case UInt8(ascii: "$"), UInt8(ascii: "#"), UInt8(ascii: "@"):
            position += 1
            let name = lexWord()
            guard !name.isEmpty else {
                throw .unexpectedCharacter(offset: start, character: String(UnicodeScalar(first)))
            }
            let kind: PredicateToken.Kind = switch first {
            case UInt8(ascii: "$"): .variable(name)
            case UInt8(ascii: "#"): .identifier(name, escaped: true)
            default: .aggregate(name)
            }
            return token(kind, from: start)
        case UInt8(ascii: "%"):
            return try lexSpecifier()
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"),
            UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: "."):
            position += 1
            return token(.punctuation(Unicode.Scalar(first)), from: start)
        case _ where PredicateKeywords.isIdentifierStart(first):
            _ = lexWord()
            // A function name of NSExpression's syntax, `lowercase:` or
            // `add:to:`: words ending in `:`, right before the `(` of its call.
            let word = position
            while byte(at: position) == UInt8(ascii: ":") {
                position += 1
                if let next = byte(at: position), PredicateKeywords.isIdentifierStart(next) { _ = lexWord() }
            }
            if position > word && (byte(at: position - 1) != UInt8(ascii: ":") || byte(at: position) != UInt8(ascii: "(")) {
                position = word
            }
            return token(.identifier(text(from: start), escaped: false), from: start)
        default:
            return try lexSymbol()
        }
    }

    /// Letters, digits, `_` and non-ASCII bytes from the current position.
    private mutating func lexWord() -> String {
        let start = position
        while let byte = byte(at: position), PredicateKeywords.isIdentifierContinuation(byte) {
            position += 1
        }
        return text(from: start)
    }

    private mutating func lexSymbol() throws(FetchPredicateError) -> PredicateToken {
        let start = position
        for symbol in Self.symbols where hasPrefix(symbol) {
            position += symbol.count
            return token(.symbol(text(from: start)), from: start)
        }
        let scalarLength = max(1, utf8Length(leading: bytes[start]))
        position = min(bytes.count, start + scalarLength)
        let character = text(from: start)
        if "`;:?".contains(character) {
            throw .unknownOperator(offset: start, text: character)
        }
        throw .unexpectedCharacter(offset: start, character: character)
    }

    private mutating func lexSpecifier() throws(FetchPredicateError) -> PredicateToken {
        let start = position
        position += 1
        for specifier in Self.specifiers where hasPrefix(specifier) {
            position += specifier.count
            return token(.specifier(String(decoding: specifier, as: UTF8.self)), from: start)
        }
        if position < bytes.count { position += 1 }
        throw .unknownFormatSpecifier(offset: start, text: text(from: start))
    }

    private func hasPrefix(_ prefix: [UInt8]) -> Bool {
        var index = position
        for byte in prefix {
            guard self.byte(at: index) == byte else { return false }
            index += 1
        }
        return true
    }

    func utf8Length(leading byte: UInt8) -> Int {
        switch byte {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }
}
