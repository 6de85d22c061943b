import Faultline

/// Command-line text as predicate values, for `%@`, `%K`, `%d`… arguments and
/// `--var NAME=VALUE` substitutions.
///
/// `42` is an integer, `4.2` (or `1e3`) a double, `true`/`false` a boolean,
/// `nil` nil, `'text'` the string `text` (the quotes let `'42'` stay a string);
/// anything else is the string as written.
enum PredicateArgument {
    static func value(_ text: String) -> PredicateValue {
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "nil": return .null
        default: break
        }
        if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
            return .string(String(text.dropFirst().dropLast()))
        }
        if let integer = Int64(text) { return .int(integer) }
        if looksNumeric(text), let double = Double(text), double.isFinite { return .double(double) }
        return .string(text)
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
