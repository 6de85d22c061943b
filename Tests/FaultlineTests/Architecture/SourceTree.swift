import Foundation

/// The core's own sources (or another target's), read as text, for the tests
/// that check how the code is laid out: which folder may use which, and where
/// SQL is written.
struct SourceTree {
    struct File {
        /// The folder under `Sources/<target>`, e.g. `Store`; for a file at the
        /// root of a target other than the core, the target's name.
        let folder: String
        /// The path under `Sources/<target>`, e.g. `Store/RowCache.swift`.
        let path: String
        /// The text with comments and string literals blanked out.
        let code: String
        /// The contents of each string literal (interpolations blanked).
        let literals: [String]
        var name: String { (path as NSString).lastPathComponent }
    }

    let files: [File]

    /// The checkout's `Sources`, found from this file's own path.
    static let sources: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// The sources of `target`, by default the core (`Sources/Faultline`).
    init(target: String = "Faultline") throws {
        let base = Self.sources.appendingPathComponent(target).path
        var files: [File] = []
        guard let walker = FileManager.default.enumerator(atPath: base) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: base])
        }
        for case let path as String in walker where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: base + "/" + path, encoding: .utf8)
            let (code, literals) = Self.split(text)
            let components = path.components(separatedBy: "/")
            // A file at the core's root (the re-exports) belongs to no layer.
            guard components.count > 1 || target != "Faultline" else { continue }
            let folder = components.count > 1 ? components[0] : target
            files.append(File(folder: folder, path: path, code: code, literals: literals))
        }
        self.files = files.sorted { $0.path < $1.path }
    }

    /// Separates code from comments and string literals: comments vanish,
    /// literals leave `""` in the code and their text in `literals`.
    static func split(_ text: String) -> (code: String, literals: [String]) {
        let characters = Array(text.unicodeScalars)
        var code = String.UnicodeScalarView()
        var literals: [String] = []
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? {
            index + offset < characters.count ? characters[index + offset] : nil
        }
        while index < characters.count {
            let character = characters[index]
            if character == "/", at(1) == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if character == "/", at(1) == "*" {
                index += 2
                while index < characters.count, !(characters[index] == "*" && at(1) == "/") { index += 1 }
                index += 2
            } else if character == "\"" {
                let multiline = at(1) == "\"" && at(2) == "\""
                index += multiline ? 3 : 1
                var literal = String.UnicodeScalarView()
                while index < characters.count {
                    let next = characters[index]
                    if next == "\\", at(1) == "(" {
                        // An interpolation: skip to its closing parenthesis.
                        var depth = 0
                        index += 1
                        repeat {
                            if characters[index] == "(" { depth += 1 }
                            if characters[index] == ")" { depth -= 1 }
                            index += 1
                        } while depth > 0 && index < characters.count
                        literal.append(" ")
                        continue
                    }
                    if next == "\\" {
                        index += 2
                        continue
                    }
                    if multiline ? (next == "\"" && at(1) == "\"" && at(2) == "\"") : next == "\"" {
                        index += multiline ? 3 : 1
                        break
                    }
                    literal.append(next)
                    index += 1
                }
                literals.append(String(literal))
                code.append(contentsOf: "\"\"".unicodeScalars)
            } else {
                code.append(character)
                index += 1
            }
        }
        return (String(code), literals)
    }

    /// The top-level types each folder declares.
    func declaredTypes() -> [String: String] {
        let pattern = #"(?m)^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*(?:class|struct|enum|protocol|typealias|actor)\s+([A-Z]\w*)"#
        var owners: [String: String] = [:]
        for file in files {
            for name in Self.matches(pattern, in: file.code) where owners[name] == nil { owners[name] = file.folder }
        }
        return owners
    }

    /// The capitalised identifiers a file's code uses.
    static func identifiers(in code: String) -> Set<String> {
        Set(matches(#"\b([A-Z][A-Za-z0-9_]*)\b"#, in: code))
    }

    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
