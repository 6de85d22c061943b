// A small XML emitter in Xcode's style: a declaration, four-space indentation,
// attributes in the order given, empty elements self-closed. Attribute values are
// escaped (`&`, `<`, `>`, `"`, and tab, line feed, carriage return as character
// references so they survive attribute-value normalization); characters XML 1.0
// cannot carry at all make `escape` return nil and the writer refuse the model.

struct XMLTextWriter {
    private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
    private var depth = 0

    /// An element's attributes; nil values are left out.
    typealias Attributes = [(String, String?)]

    /// Writes `<name …>` (or `<name …/>` when `empty`).
    mutating func open(_ name: String, _ attributes: Attributes, empty: Bool = false) throws(XMLTextWriter.Unencodable) {
        var line = String(repeating: "    ", count: depth) + "<" + name
        for (key, value) in attributes {
            guard let value else { continue }
            guard let escaped = Self.escape(value) else { throw Unencodable(attribute: key, value: value) }
            line += " \(key)=\"\(escaped)\""
        }
        line += empty ? "/>\n" : ">\n"
        text += line
        if !empty { depth += 1 }
    }

    /// Writes `</name>`.
    mutating func close(_ name: String) {
        depth = max(0, depth - 1)
        text += String(repeating: "    ", count: depth) + "</" + name + ">\n"
    }

    /// Appends already formatted lines (a nested writer's body), indented to the current depth.
    mutating func append(body: String) {
        let indent = String(repeating: "    ", count: depth)
        for line in body.split(separator: "\n", omittingEmptySubsequences: true) {
            text += indent + line + "\n"
        }
    }

    /// The text after the XML declaration.
    var body: String {
        guard let end = text.firstIndex(of: "\n") else { return text }
        return String(text[text.index(after: end)...])
    }

    /// A value that XML 1.0 cannot carry.
    struct Unencodable: Error {
        let attribute: String
        let value: String
    }

    /// The value escaped for a double-quoted attribute, nil when it holds a
    /// character XML 1.0 forbids (most C0 controls, U+FFFE, U+FFFF, lone surrogates).
    static func escape(_ value: String) -> String? {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { return nil }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
