import Faultline
import Foundation
@testable import FaultlineTools

/// The program `GeneratedRoundTripTests` compiles beside a model's generated
/// classes: it opens a container on the model, registers the classes with
/// `validate: true`, inserts one object of every concrete entity through the
/// generated classes, sets every stored attribute through its typed key to a
/// value its type and validation rules accept, links every relationship,
/// saves, then fetches each entity through its generated `fetchRequest()` in
/// a new context and compares every value read back. It prints one line per
/// entity and exits 1 on any difference.
///
/// An attribute no candidate value fits (a pattern none of the candidates
/// matches) is left nil when optional and named on a `skipped` line; the test
/// counts those lines, so nothing is left out silently.
struct RoundTripHarness {
    let model: CheckedModel

    private var classes: [String] { model.entities.map(ModelCodeGenerator.className(of:)) }

    private static func member(_ name: String) -> String {
        ModelCodeGenerator.keywords.contains(name) ? "`\(name)`" : name
    }

    /// A Swift expression of the attribute's key type its rules accept, or nil
    /// when no candidate does; `salt` (the entity's index) makes each object's
    /// values differ, since uniqueness constraints span an entity hierarchy.
    static func value(for attribute: CheckedAttribute, salt: Int) -> String? {
        let rules = attribute.validationRules
        switch attribute.attributeType {
        case .stringAttributeType:
            let candidates = ["Sample \(salt)", "sample\(salt)", "S\(salt)", "\(salt)", "a\(salt)@example.com", "https://example.com/\(salt)"]
            return candidates.first { text in rules.allSatisfy { accepts($0, text: text) } }.map(ModelCodeGenerator.literal)
        case .URIAttributeType: return "Foundation.URL(string: \(ModelCodeGenerator.literal("https://example.com/\(salt)")))"
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return integer(rules, salt: salt).map { "Swift.Int64(\($0))" }
        case .doubleAttributeType, .floatAttributeType:
            for candidate in [2.5 + Double(salt), 0.5, 1.0, 0.0, 100.0, -1.0] where rules.allSatisfy({ accepts($0, number: .double(candidate)) }) {
                return "Swift.Double(\(candidate))"
            }
            return nil
        case .decimalAttributeType:
            for candidate in ["12.\(salt)5", "1", "0", "100"] where rules.allSatisfy({ accepts($0, number: .decimalLiteral(candidate)) }) {
                return "Foundation.Decimal(string: \"\(candidate)\")"
            }
            return nil
        case .booleanAttributeType: return "true"
        case .dateAttributeType:
            for seconds in [1_000.0 + Double(salt), 0, 500_000_000, -500_000_000] {
                let date = Date(timeIntervalSinceReferenceDate: seconds)
                if rules.allSatisfy({ accepts($0, date: date) }) { return "Foundation.Date(timeIntervalSinceReferenceDate: \(seconds))" }
            }
            return nil
        case .binaryDataAttributeType: return "Foundation.Data([1, 2, \(salt % 256)])"
        case .UUIDAttributeType: return "Foundation.UUID(uuidString: \"E621E1F8-C36C-495A-93FC-\(String(format: "%012d", salt))\")"
        // The app's own transformers are stood in for by one that keeps the bytes (below);
        // Core Data's default transformer archives Data and arrays of strings.
        case .transformableAttributeType:
            switch ModelCodeGenerator.transformableValueType(attribute.attributeValueClassName) {
            case "Any": return "Foundation.Data([4, 5, \(salt % 256)])"
            case "[Swift.String]": return "[\"a\", \"b\(salt)\"]"
            default: return nil
            }
        default: return nil
        }
    }

    private static func integer(_ rules: [ValidationRule], salt: Int) -> Int64? {
        [7 + Int64(salt), 1, 0, 100, -1, 1_000].first { candidate in rules.allSatisfy { accepts($0, number: .integer(candidate)) } }
    }

    private static func accepts(_ rule: ValidationRule, text: String) -> Bool {
        let length = (text as NSString).length
        switch rule {
        case .minimumLength(let minimum): return length >= minimum
        case .maximumLength(let maximum): return length <= maximum
        case .pattern(let pattern):
            guard let regex = try? NSRegularExpression(pattern: "^(?:\(pattern))$") else { return false }
            return regex.firstMatch(in: text, range: NSRange(location: 0, length: length)) != nil
        default: return true
        }
    }

    private static func accepts(_ rule: ValidationRule, number: NumericBound) -> Bool {
        switch rule {
        case .minimumValue(let bound): return number.compare(to: bound) != .orderedAscending
        case .maximumValue(let bound): return number.compare(to: bound) != .orderedDescending
        default: return true
        }
    }

    private static func accepts(_ rule: ValidationRule, date: Date) -> Bool {
        switch rule {
        case .earliestDate(let bound): return date >= bound
        case .latestDate(let bound): return date <= bound
        default: return true
        }
    }

    /// A concrete entity standing for `index`: itself, or its first concrete descendant.
    private func concrete(_ index: Int) -> Int? {
        let entity = model.entities[index]
        if !entity.isAbstract { return index }
        for child in entity.subentityIndexes { if let found = concrete(child) { return found } }
        return nil
    }

    /// `main.swift` for the model at `path`, version `version`.
    func source(modelPath path: String, version: String) -> String {
        let classes = classes
        let entities = model.entities.filter { !$0.isAbstract }
        var insert: [String] = [], link: [String] = [], check: [String] = []
        for entity in entities {
            let object = "o\(entity.index)"
            let type = classes[entity.index]
            insert.append("    let \(object) = try writer.insertObject(\(type).self)")
            check.append("    do {")
            check.append("        let request = \(type).fetchRequest()")
            check.append("        let found = try reader.fetch(request).filter { Swift.type(of: $0) == \(type).self }")
            check.append("        guard found.count == 1, let \(object) = found.first as? \(type) else { fail(\(ModelCodeGenerator.literal(entity.name)), \"fetched \\(found.count) objects\") }")
            var checked = 0
            for attribute in entity.attributes where !attribute.isDerived && !attribute.isTransient {
                guard let keyType = ModelCodeGenerator.keyType(of: attribute) else { continue }
                let key = "\(classes[attribute.declaringEntityIndex]).\(Self.member(attribute.keyPath.joined(separator: "_")))"
                guard let value = Self.value(for: attribute, salt: entity.index) else {
                    check.append("        print(\"skipped \(entity.name).\(attribute.name): no candidate value fits its rules\")")
                    continue
                }
                // A transformable key of `Any` reads the decoded value as `Any`: compare it as the bytes written.
                let read = keyType.type == "Any" ? "(\(object)[\(key)] as? Foundation.Data)" : "\(object)[\(key)]"
                insert.append("    \(object)[\(key)] = \(value)")
                check.append("        guard \(read) == \(value) else { fail(\(ModelCodeGenerator.literal(entity.name)), \"\(attribute.name) reads \\(String(describing: \(object)[\(key)]))\") }")
                checked += 1
            }
            for relationship in entity.relationships where !relationship.isTransient {
                guard let destination = concrete(relationship.destinationEntityIndex) else { continue }
                let key = "\(classes[relationship.declaringEntityIndex]).\(Self.member(relationship.name))"
                if relationship.isToMany {
                    link.append("    if !\(object)[\(key)].contains(where: { $0 === o\(destination) }) { try \(object).add(o\(destination), to: \(key)) }")
                    check.append("        guard !\(object)[\(key)].isEmpty else { fail(\(ModelCodeGenerator.literal(entity.name)), \"\(relationship.name) is empty\") }")
                } else {
                    link.append("    if \(object)[\(key)] == nil { \(object)[\(key)] = o\(destination) }")
                    check.append("        guard \(object)[\(key)] != nil else { fail(\(ModelCodeGenerator.literal(entity.name)), \"\(relationship.name) is nil\") }")
                }
                checked += 1
            }
            check.append("        print(\"round trip \(entity.name): \(checked) properties\")")
            check.append("    }")
        }
        return """
            import Faultline
            import Foundation

            func fail(_ entity: String, _ problem: String) -> Never {
                print("FAILED \\(entity): \\(problem)")
                exit(1)
            }

            /// Stands in for the app's own value transformers: it keeps the bytes it is given.
            struct BytesTransformer: AttributeValueTransformer {
                struct NotBytes: Error {}
                func encode(_ value: Any) throws -> Data {
                    guard let data = value as? Data else { throw NotBytes() }
                    return data
                }
                func decode(_ data: Data) throws -> Any { data }
            }

            let bundle = try ModelBundle.read(at: URL(fileURLWithPath: \(ModelCodeGenerator.literal(path))))
            guard let version = bundle.versions.first(where: { $0.name == \(ModelCodeGenerator.literal(version)) }) else { fail("model", "no version") }
            ValueTransformerRegistry.registerMissing(in: version.model, standIn: BytesTransformer())
            let container = try PersistentContainer(model: version.model, location: .inMemory)
            try \(ModelCodeGenerator.typeName(bundle: path))Model.register(in: container, validate: true)
            let writer = container.newBackgroundContext()
            try writer.performAndWait {
            \(insert.joined(separator: "\n"))
            \(link.joined(separator: "\n"))
                try writer.save()
            }
            let reader = container.newBackgroundContext()
            try reader.performAndWait {
            \(check.joined(separator: "\n"))
            }

            """
    }
}

extension ModelCodeGenerator {
    /// The registration type's name stem `model generate` gives the bundle at `path`.
    static func typeName(bundle path: String) -> String {
        (try? ModelBundle.read(at: URL(fileURLWithPath: path))).map { typeName($0.name) } ?? "Generated"
    }
}
