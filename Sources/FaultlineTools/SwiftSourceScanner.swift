/// The tokens of the few Swift expressions `model validate` reads — a key's
/// arguments and its validation rules — with string literals decoded as the
/// compiler decodes them: escapes (`\\`, `\"`, `\n`, `\u{5c}`, …), raw strings
/// (`#"…"#`, whose escapes take the same number of `#`) and multi-line
/// strings (`"""`, indentation of the closing delimiter removed). What it
/// cannot decode without running the user's code — interpolation, regex
/// literals — is an error naming it, never a guess.
struct SwiftSourceScanner {
    enum Token: Equatable {
        case identifier(String)
        case number(String)
        case string(String)
        case punctuation(Character)
    }

    struct Failure: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: Substring) { scalars = Array(text.unicodeScalars) }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }

    /// The next token, nil at the end; comments and white space are skipped.
    mutating func next() throws(Failure) -> Token? {
        skipTrivia()
        guard let scalar = peek() else { return nil }
        if scalar == "\"" || (scalar == "#" && (peek(1) == "\"" || peek(1) == "#")) { return .string(try stringLiteral()) }
        if scalar == "/" || (scalar == "#" && peek(1) == "/") {
            throw Failure(description: "a regex literal (write the ICU pattern as a string)")
        }
        if ("0"..."9").contains(scalar) { return .number(numberLiteral()) }
        if scalar == "`" || Self.isIdentifierScalar(scalar) {
            let quoted = scalar == "`"
            if quoted { position += 1 }
            var name = ""
            while let next = peek(), Self.isIdentifierScalar(next) { name.unicodeScalars.append(next); position += 1 }
            if quoted, peek() == "`" { position += 1 }
            return .identifier(name)
        }
        position += 1
        return .punctuation(Character(scalar))
    }

    private mutating func skipTrivia() {
        while let scalar = peek() {
            if scalar.properties.isWhitespace {
                position += 1
            } else if scalar == "/", peek(1) == "/" {
                while let next = peek(), next != "\n" { position += 1 }
            } else if scalar == "/", peek(1) == "*" {
                position += 2
                while position < scalars.count, !(peek() == "*" && peek(1) == "/") { position += 1 }
                position = min(position + 2, scalars.count)
            } else {
                return
            }
        }
    }

    /// Digits with underscores, a fraction and an exponent, as written (underscores dropped).
    private mutating func numberLiteral() -> String {
        var text = ""
        var previous: Unicode.Scalar = " "
        while let scalar = peek() {
            let isSign = (scalar == "-" || scalar == "+") && (previous == "e" || previous == "E")
            let isFraction = scalar == "." && peek(1).map { ("0"..."9").contains($0) } == true
            guard Self.isIdentifierScalar(scalar) || isSign || isFraction else { break }
            if scalar != "_" { text.unicodeScalars.append(scalar) }
            previous = scalar
            position += 1
        }
        return text
    }

    private mutating func stringLiteral() throws(Failure) -> String {
        var hashes = 0
        while peek() == "#" { hashes += 1; position += 1 }
        guard peek() == "\"" else { throw Failure(description: "a '#' that opens no string") }
        if peek(1) == "\"", peek(2) == "\"" {
            position += 3
            return try multiLineBody(hashes: hashes)
        }
        position += 1
        var text = ""
        while true {
            guard let scalar = peek(), scalar != "\n" else { throw Failure(description: "an unterminated string literal") }
            if scalar == "\"", closes(hashes: hashes, at: position + 1) {
                position += 1 + hashes
                return text
            }
            if scalar == "\\", closes(hashes: hashes, at: position + 1) {
                position += 1 + hashes
                try escape(into: &text)
            } else {
                text.unicodeScalars.append(scalar)
                position += 1
            }
        }
    }

    private func closes(hashes: Int, at index: Int) -> Bool {
        (0..<hashes).allSatisfy { index + $0 < scalars.count && scalars[index + $0] == "#" }
    }

    /// After the backslash (and its hashes) of an escape.
    private mutating func escape(into text: inout String) throws(Failure) {
        guard let scalar = peek() else { throw Failure(description: "an unterminated string literal") }
        position += 1
        switch scalar {
        case "0": text.unicodeScalars.append("\0")
        case "\\": text.unicodeScalars.append("\\")
        case "t": text.unicodeScalars.append("\t")
        case "n": text.unicodeScalars.append("\n")
        case "r": text.unicodeScalars.append("\r")
        case "\"": text.unicodeScalars.append("\"")
        case "'": text.unicodeScalars.append("'")
        case "(": throw Failure(description: "an interpolated string (its value is only known when the code runs)")
        case "u":
            guard peek() == "{" else { throw Failure(description: "a \\u escape without {…}") }
            position += 1
            var hex = ""
            while let digit = peek(), digit != "}" { hex.unicodeScalars.append(digit); position += 1 }
            position += 1
            guard (1...8).contains(hex.count), let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else {
                throw Failure(description: "an invalid escape \\u{\(hex)}")
            }
            text.unicodeScalars.append(decoded)
        default:
            throw Failure(description: "an invalid escape \\\(scalar)")
        }
    }

    /// A `"""` literal's lines after the opening line: each loses the closing
    /// delimiter's indentation; a backslash at a line's end joins it to the next.
    private mutating func multiLineBody(hashes: Int) throws(Failure) -> String {
        while let scalar = peek(), scalar != "\n" {
            guard scalar.properties.isWhitespace else { throw Failure(description: "text after an opening \"\"\"") }
            position += 1
        }
        position += 1
        var lines: [[Unicode.Scalar]] = [[]]
        while true {
            guard let scalar = peek() else { throw Failure(description: "an unterminated multi-line string literal") }
            if scalar == "\"", peek(1) == "\"", peek(2) == "\"", closes(hashes: hashes, at: position + 3) {
                position += 3 + hashes
                break
            }
            if scalar == "\n" { lines.append([]) } else { lines[lines.count - 1].append(scalar) }
            position += 1
        }
        let indentation = lines.removeLast()
        guard indentation.allSatisfy({ $0 == " " || $0 == "\t" }) else {
            throw Failure(description: "a closing \"\"\" that does not stand on its own line")
        }
        var text = ""
        for (index, line) in lines.enumerated() {
            guard line.isEmpty || line.starts(with: indentation) else {
                throw Failure(description: "a multi-line string line indented less than its closing \"\"\"")
            }
            var body = SwiftSourceScanner(Substring(String(String.UnicodeScalarView(line.dropFirst(line.isEmpty ? 0 : indentation.count)))))
            let joined = try body.decodeLine(hashes: hashes)
            text += joined.text
            if index < lines.count - 1 && !joined.continues { text += "\n" }
        }
        return text
    }

    /// One line of a multi-line literal's body, escapes decoded; `continues`
    /// when it ends in a backslash that joins it to the next.
    private mutating func decodeLine(hashes: Int) throws(Failure) -> (text: String, continues: Bool) {
        var text = ""
        while let scalar = peek() {
            if scalar == "\\", closes(hashes: hashes, at: position + 1) {
                position += 1 + hashes
                if scalars[position...].allSatisfy({ $0 == " " || $0 == "\t" }) { return (text, true) }
                try escape(into: &text)
            } else {
                text.unicodeScalars.append(scalar)
                position += 1
            }
        }
        return (text, false)
    }
}
