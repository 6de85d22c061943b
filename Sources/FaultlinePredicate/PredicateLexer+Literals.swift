/// The literals of the lexer: numbers and quoted strings.
extension PredicateLexer {
    /// `-`? then a decimal integer, `0x`/`0o`/`0b` integer, or a decimal with
    /// a fraction and/or exponent (a double; so is a decimal integer beyond
    /// Int64). Trailing identifier characters make the whole run an invalid number.
    mutating func lexNumber() throws(FetchPredicateError) -> PredicateToken {
        let start = position
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        let radix = radixPrefix()
        var isDouble = false
        if let radix {
            position += 2
            let digitsStart = position
            while let byte = byte(at: position), isDigit(byte, radix: radix) { position += 1 }
            if position == digitsStart { return try invalidNumber(from: start) }
        } else {
            skipDigits()
            if byte(at: position) == UInt8(ascii: "."), let next = byte(at: position + 1),
                PredicateKeywords.isDigit(next)
            {
                isDouble = true
                position += 1
                skipDigits()
            }
            if let e = byte(at: position), e | 0x20 == UInt8(ascii: "e") {
                var index = position + 1
                if let sign = byte(at: index), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                    index += 1
                }
                if let digit = byte(at: index), PredicateKeywords.isDigit(digit) {
                    isDouble = true
                    position = index
                    skipDigits()
                }
            }
        }
        if let next = byte(at: position), PredicateKeywords.isIdentifierContinuation(next) {
            return try invalidNumber(from: start)
        }
        let literal = text(from: start)
        if isDouble {
            guard let value = Double(literal), value.isFinite else { return try invalidNumber(from: start) }
            return token(.double(value), from: start)
        }
        let digits = radix == nil ? literal : (negative ? "-" : "") + String(literal.dropFirst(negative ? 3 : 2))
        if let value = Int64(digits, radix: radix ?? 10) { return token(.integer(value), from: start) }
        // A decimal integer wider than 64 bits is still a number, as in NSPredicate;
        // like SQLite's own literal of that size, it becomes a double.
        guard radix == nil, let value = Double(literal), value.isFinite else { return try invalidNumber(from: start) }
        return token(.double(value), from: start)
    }

    private func radixPrefix() -> Int? {
        guard byte(at: position) == UInt8(ascii: "0"), let marker = byte(at: position + 1) else { return nil }
        switch marker | 0x20 {
        case UInt8(ascii: "x"): return 16
        case UInt8(ascii: "o"): return 8
        case UInt8(ascii: "b"): return 2
        default: return nil
        }
    }

    private func isDigit(_ byte: UInt8, radix: Int) -> Bool {
        switch radix {
        case 16: PredicateKeywords.isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
        case 8: byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "7")
        default: byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1")
        }
    }

    private mutating func skipDigits() {
        while let byte = byte(at: position), PredicateKeywords.isDigit(byte) { position += 1 }
    }

    private mutating func invalidNumber(from start: Int) throws(FetchPredicateError) -> PredicateToken {
        while let byte = byte(at: position), PredicateKeywords.isIdentifierContinuation(byte)
            || byte == UInt8(ascii: ".")
        {
            position += 1
        }
        throw .invalidNumber(offset: start, text: text(from: start))
    }

    /// A quoted string; escapes \n \t \r \0 \" \' \\ and \uXXXX (a surrogate
    /// pair as two escapes).
    mutating func lexString(quote: UInt8) throws(FetchPredicateError) -> PredicateToken {
        let start = position
        position += 1
        var content: [UInt8] = []
        while let byte = byte(at: position) {
            position += 1
            if byte == quote {
                return token(.string(String(decoding: content, as: UTF8.self)), from: start)
            }
            guard byte == UInt8(ascii: "\\") else {
                content.append(byte)
                continue
            }
            let escapeStart = position - 1
            guard let escaped = self.byte(at: position) else { break }
            position += 1
            switch escaped {
            case UInt8(ascii: "n"): content.append(0x0A)
            case UInt8(ascii: "t"): content.append(0x09)
            case UInt8(ascii: "r"): content.append(0x0D)
            case UInt8(ascii: "0"): content.append(0x00)
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"): content.append(escaped)
            case UInt8(ascii: "u"):
                content.append(contentsOf: try lexUnicodeEscape(from: escapeStart))
            default:
                position = min(bytes.count, escapeStart + 1 + utf8Length(leading: escaped))
                throw .invalidEscape(offset: escapeStart, sequence: text(from: escapeStart))
            }
        }
        throw .unterminatedString(offset: start)
    }

    /// The UTF-8 of `\uXXXX` (or a pair `\uD8xx\uDCxx`), `position` just past the `u`.
    private mutating func lexUnicodeEscape(from escapeStart: Int) throws(FetchPredicateError) -> [UInt8] {
        var value = try hexQuad(escapeStart: escapeStart)
        if (0xD800...0xDBFF).contains(value) {
            guard byte(at: position) == UInt8(ascii: "\\"), byte(at: position + 1) == UInt8(ascii: "u") else {
                throw .invalidEscape(offset: escapeStart, sequence: text(from: escapeStart))
            }
            position += 2
            let low = try hexQuad(escapeStart: escapeStart)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw .invalidEscape(offset: escapeStart, sequence: text(from: escapeStart))
            }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw .invalidEscape(offset: escapeStart, sequence: text(from: escapeStart))
        }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func hexQuad(escapeStart: Int) throws(FetchPredicateError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = byte(at: position), isDigit(byte, radix: 16),
                let digit = UInt32(String(UnicodeScalar(byte)), radix: 16)
            else {
                throw .invalidEscape(offset: escapeStart, sequence: text(from: escapeStart))
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
