import FaultlineSQLite

/// The small expression language of batch updates: arithmetic over the row's
/// own numeric columns, evaluated by SQLite in the UPDATE itself.
///
///     expression := term (("+" | "-") term)*
///     term       := factor (("*" | "/") factor)*
///     factor     := number | attribute | "(" expression ")" | "-" factor
///
/// `attribute` is a stored numeric attribute of the updated entity (composite
/// leaves by dotted key path); numbers are bound as parameters, attributes
/// become their column names. Nothing else is accepted, so no text from the
/// expression ever reaches SQL but validated identifiers and operators.
struct BatchUpdateExpression {
    static let maximumDepth = 64
    static let maximumLength = 1_000

    private let text: String
    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0
    private let entity: CheckedEntity
    private let mapping: EntityMapping
    private(set) var bindings: [SQLValue] = []

    /// Compiles `text` for `entity`; returns SQL with `?` and its bindings.
    static func compile(_ text: String, entity: CheckedEntity, mapping: EntityMapping) throws -> (String, [SQLValue]) {
        guard text.utf8.count <= maximumLength else { throw BatchError.invalidExpression(String(text.prefix(40)), reason: "too long") }
        var parser = BatchUpdateExpression(text: text, bytes: Array(text.utf8), entity: entity, mapping: mapping)
        let sql = try parser.expression()
        parser.skipSpaces()
        guard parser.position == parser.bytes.count else { throw parser.failure("unexpected text at offset \(parser.position)") }
        return ("(\(sql))", parser.bindings)
    }

    private init(text: String, bytes: [UInt8], entity: CheckedEntity, mapping: EntityMapping) {
        self.text = text
        self.bytes = bytes
        self.entity = entity
        self.mapping = mapping
    }

    private func failure(_ reason: String) -> BatchError { .invalidExpression(text, reason: reason) }

    private mutating func skipSpaces() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
    }

    private mutating func peek() -> UInt8? {
        skipSpaces()
        return position < bytes.count ? bytes[position] : nil
    }

    private mutating func expression() throws -> String {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw failure("nested too deeply") }
        var sql = try term()
        while let next = peek(), next == UInt8(ascii: "+") || next == UInt8(ascii: "-") {
            position += 1
            sql += next == UInt8(ascii: "+") ? " + " : " - "
            sql += try term()
        }
        return sql
    }

    private mutating func term() throws -> String {
        var sql = try factor()
        while let next = peek(), next == UInt8(ascii: "*") || next == UInt8(ascii: "/") {
            position += 1
            sql += next == UInt8(ascii: "*") ? " * " : " / "
            sql += try factor()
        }
        return sql
    }

    private mutating func factor() throws -> String {
        guard let next = peek() else { throw failure("expected a number, an attribute or '('") }
        switch next {
        case UInt8(ascii: "("):
            position += 1
            let inner = try expression()
            guard peek() == UInt8(ascii: ")") else { throw failure("expected ')' at offset \(position)") }
            position += 1
            return "(\(inner))"
        case UInt8(ascii: "-"):
            position += 1
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw failure("nested too deeply") }
            return "-" + (try factor())
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."):
            return try number()
        default:
            return try attribute()
        }
    }

    private mutating func number() throws -> String {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
            || bytes[position] == UInt8(ascii: ".") || bytes[position] == UInt8(ascii: "e")
            || bytes[position] == UInt8(ascii: "E")
            || ((bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-"))
                && position > start && (bytes[position - 1] == UInt8(ascii: "e") || bytes[position - 1] == UInt8(ascii: "E"))) {
            position += 1
        }
        let literal = String(decoding: bytes[start..<position], as: UTF8.self)
        if let integer = Int64(literal) {
            bindings.append(.integer(integer))
        } else if let real = Double(literal), real.isFinite {
            bindings.append(.real(real))
        } else {
            throw failure("'\(literal)' is not a number")
        }
        return "?"
    }

    private mutating func attribute() throws -> String {
        let start = position
        while position < bytes.count, isIdentifier(bytes[position]) { position += 1 }
        guard position > start else { throw failure("unexpected character at offset \(position)") }
        let name = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let attribute = entity.attribute(named: name), let column = mapping.column(forAttributeAt: attribute.index) else {
            throw failure("\(entity.name) has no stored attribute '\(name)'")
        }
        guard attribute.attributeType.isNumeric else { throw failure("'\(name)' is not numeric") }
        return column
    }

    private func isIdentifier(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }
}
