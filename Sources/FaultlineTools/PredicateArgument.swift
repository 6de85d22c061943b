import Faultline
import Foundation

/// Command-line text as predicate values, for `%@`, `%K`, `%d`… arguments and
/// `--var NAME=VALUE` substitutions.
///
/// `42` is an integer, `4.2` (or `1e3`) a double, `true`/`false` a boolean,
/// `nil` nil, `'text'` the string `text` (the quotes let `'42'` stay a string),
/// `{1, 2, 'x'}` an array of such values (nested braces nest), `@2024-01-31`
/// or `@2024-01-31T12:00:00Z` a date (ISO 8601, UTC unless it names a zone);
/// anything else is the string as written.
enum PredicateArgument {
    static func value(_ text: String) -> PredicateValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("{"), trimmed.hasSuffix("}") {
            return .array(elements(of: String(trimmed.dropFirst().dropLast())).map(value))
        }
        if trimmed.hasPrefix("@"), let date = date(String(trimmed.dropFirst())) { return .date(date) }
        switch trimmed {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "nil": return .null
        default: break
        }
        if trimmed.count >= 2, trimmed.hasPrefix("'"), trimmed.hasSuffix("'") {
            return .string(String(trimmed.dropFirst().dropLast()))
        }
        if let integer = Int64(trimmed) { return .int(integer) }
        if looksNumeric(trimmed), let double = Double(trimmed), double.isFinite { return .double(double) }
        return .string(text)
    }

    /// The elements of an array's text: split at the commas outside nested
    /// braces and quotes; nothing for an empty array.
    private static func elements(of text: String) -> [String] {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        var parts: [String] = []
        var current = ""
        var depth = 0
        var quoted = false
        for character in text {
            switch character {
            case "'": quoted.toggle()
            case "{" where !quoted: depth += 1
            case "}" where !quoted: depth -= 1
            case "," where !quoted && depth == 0:
                parts.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    /// `2024-01-31` (midnight UTC) or a full ISO 8601 date and time.
    private static func date(_ text: String) -> Date? {
        let full = ISO8601DateFormatter()
        if let date = full.date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return day.date(from: text)
    }

    /// `NAME=VALUE` as a variable name and its value; nil without `=` or a name.
    static func variable(_ text: String) -> (name: String, value: PredicateValue)? {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        var name = String(text[..<equals])
        if name.hasPrefix("$") { name.removeFirst() }
        guard !name.isEmpty else { return nil }
        return (name, value(String(text[text.index(after: equals)...])))
    }

    /// Only digits, one sign, a point and an exponent: keeps `inf`, `nan` and
    /// hexadecimal floats strings.
    private static func looksNumeric(_ text: String) -> Bool {
        !text.isEmpty && text.contains(where: \.isASCIIDigit)
            && text.allSatisfy { $0.isASCIIDigit || "+-.eE".contains($0) }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
