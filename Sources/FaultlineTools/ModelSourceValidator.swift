import Faultline
import Foundation

/// `model validate`: hand-written (or generated, then edited) declarations
/// checked against the model. It reads Swift source with a small parser for
/// the forms `model generate` writes and the README documents — a class
/// declaration `class Name: Parent {` and, inside it, `static let name =
/// AttributeKey<Type>("key", rules: […])` (or `TransformableKey<Type>`, `ToOneKey<Destination>`,
/// `ToManyKey<…>`, module prefixes optional, over as many lines as wanted;
/// the arguments read by `KeyArgumentsParser`) — rather than loading the
/// classes, because a command-line check must work on sources that do not
/// build yet. Anything else in the files is ignored. The same check over
/// compiled classes is `register(_:forEntityName:validate: true)`.
struct ModelSourceValidator {
    /// One disagreement, with where it is (nil for something missing from the sources).
    struct Drift: CustomStringConvertible, Equatable {
        let file: String?
        let line: Int?
        let message: String
        var description: String { [file.map { "\($0):\(line ?? 0): " } ?? "", message].joined() }
    }

    struct Declaration {
        let file: String
        let line: Int
        let className: String
        let member: String
        let kind: String
        /// The value or destination type, module prefixes and a trailing `?` removed.
        let type: String
        let acceptsNil: Bool
        let key: String
        let rules: [ValidationRule]
        /// Why the arguments could not be read (then `key` is the member's name and `rules` empty).
        let unreadable: String?
    }

    let model: CheckedModel

    /// The class and key declarations in `text` (a file named `file`).
    static func declarations(in text: String, file: String) -> (classes: [(name: String, line: Int)], keys: [Declaration]) {
        var classes: [(String, Int)] = []
        var keys: [Declaration] = []
        var current: String?
        let classPattern = /(?:^|\s)class\s+([A-Za-z_][A-Za-z0-9_]*)\s*:\s*[A-Za-z_][A-Za-z0-9_.]*/
        let keyPattern = /static\s+let\s+`?([A-Za-z_][A-Za-z0-9_]*)`?\s*=\s*(?:Faultline\.)?(AttributeKey|TransformableKey|ToOneKey|ToManyKey)<(.+?)>\(/
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.contains("class var") || line.contains("class func") {
                continue
            }
            if let match = line.firstMatch(of: classPattern) {
                current = String(match.1)
                classes.append((String(match.1), offset + 1))
            } else if let match = line.firstMatch(of: keyPattern), let owner = current {
                // The arguments may run over the following lines: parse from here on.
                var parser = KeyArgumentsParser(text[match.range.upperBound...])
                let written = String(match.3).replacingOccurrences(of: " ", with: "")
                // A transformable key reads an optional whatever its type parameter.
                let acceptsNil = written.hasSuffix("?") || written.hasPrefix("Optional<") || written.hasPrefix("Swift.Optional<")
                    || match.2 == "TransformableKey"
                var arguments: (key: String, rules: [ValidationRule]) = (String(match.1), [])
                var unreadable: String?
                do { arguments = try parser.arguments() } catch { unreadable = error.description }
                keys.append(Declaration(file: file, line: offset + 1, className: owner, member: String(match.1),
                                        kind: String(match.2), type: normalized(written), acceptsNil: acceptsNil,
                                        key: arguments.key, rules: arguments.rules, unreadable: unreadable))
            }
        }
        return (classes, keys)
    }

    /// A type as written with its module prefixes removed.
    static func normalized(_ type: String) -> String {
        var type = type.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "Swift.", with: "")
            .replacingOccurrences(of: "Foundation.", with: "")
        if type.hasPrefix("Optional<"), type.hasSuffix(">") { type = String(type.dropFirst("Optional<".count).dropLast()) }
        if type.hasSuffix("?") { type.removeLast() }
        return type
    }

    /// Every disagreement between the model and the declarations of `files` (path → text).
    func drift(in files: [(path: String, text: String)]) -> [Drift] {
        var classLines: [String: (file: String, line: Int)] = [:]
        var keys: [Declaration] = []
        for (path, text) in files {
            let found = Self.declarations(in: text, file: path)
            for (name, line) in found.classes { classLines[name] = (path, line) }
            keys += found.keys
        }
        var drift: [Drift] = []
        let classNames = model.entities.map(ModelCodeGenerator.className)
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            let className = classNames[entity.index]
            guard let place = classLines[className] else {
                drift.append(Drift(file: nil, line: nil, message: "entity \(entity.name): no class \(className) in the sources"))
                continue
            }
            let declared = keys.filter { $0.className == className }
            var expected: [String: (kind: String, type: String, attribute: CheckedAttribute?)] = [:]
            for attribute in entity.attributes where attribute.declaringEntityIndex == entity.index {
                guard let key = ModelCodeGenerator.keyType(of: attribute) else { continue }
                expected[attribute.name] = (key.kind, Self.normalized(key.type), attribute)
            }
            for relationship in entity.relationships where relationship.declaringEntityIndex == entity.index && !relationship.isTransient {
                expected[relationship.name] = (relationship.isToMany ? "ToManyKey" : "ToOneKey",
                                               classNames[relationship.destinationEntityIndex], nil)
            }
            for key in declared {
                if let unreadable = key.unreadable {
                    drift.append(Drift(file: key.file, line: key.line, message: "\(className).\(key.member): cannot read the key's arguments: \(unreadable)"))
                    continue
                }
                guard let wanted = expected[key.key] else {
                    drift.append(Drift(file: key.file, line: key.line,
                                       message: "\(className).\(key.member): entity \(entity.name) has no property '\(key.key)'"))
                    continue
                }
                if wanted.kind != key.kind {
                    drift.append(Drift(file: key.file, line: key.line,
                                       message: "\(className).\(key.member): '\(key.key)' is declared as \(key.kind), the model has it as \(wanted.kind)"))
                } else if wanted.type != key.type {
                    drift.append(Drift(file: key.file, line: key.line,
                                       message: "\(className).\(key.member): '\(key.key)' is \(key.kind)<\(key.type)>, the model's type is \(wanted.type)"))
                } else if let attribute = wanted.attribute {
                    drift += attributeDrift(key, attribute, className: className)
                }
            }
            let present = Set(declared.map(\.key))
            for name in expected.keys.sorted() where !present.contains(name) {
                drift.append(Drift(file: place.file, line: place.line, message: "\(className): no key for \(entity.name).\(name)"))
            }
        }
        let known = Set(classNames)
        for (name, place) in classLines.sorted(by: { $0.key < $1.key }) where !known.contains(name) && keys.contains(where: { $0.className == name }) {
            drift.append(Drift(file: place.file, line: place.line, message: "class \(name) declares keys but names no entity of the model"))
        }
        return drift
    }

    /// Optionality, and the rules compared with `ValidationRule.drift`; a
    /// pattern that is no ICU regular expression is reported as such too.
    private func attributeDrift(_ key: Declaration, _ attribute: CheckedAttribute, className: String) -> [Drift] {
        let prefix = "\(className).\(key.member): '\(key.key)'"
        var drift: [Drift] = []
        if attribute.isOptional && !key.acceptsNil {
            drift.append(Drift(file: key.file, line: key.line, message: "\(prefix) is optional in the model, its key's type \(key.type) holds no nil"))
        }
        for case .pattern(let pattern) in key.rules where (try? NSRegularExpression(pattern: pattern)) == nil {
            drift.append(Drift(file: key.file, line: key.line, message: "\(prefix): pattern \(pattern.debugDescription) is not a valid ICU regular expression"))
        }
        for sentence in ValidationRule.drift(declared: key.rules, model: attribute.validationRules) {
            drift.append(Drift(file: key.file, line: key.line, message: "\(prefix): \(sentence)"))
        }
        return drift
    }

}
