// The vocabulary of Xcode's model format, shared by the reader and the writer:
// attribute type names, delete rule names, booleans, numbers, and the lists of
// XML attributes each element may carry. Keeping the two directions on one
// table is what makes "read what was written" give the same model.

import Foundation
import FaultlineModel

enum ModelFileFormat {
    /// `attributeType="…"` spellings, one per `AttributeType`.
    static let attributeTypeNames: [(String, AttributeType)] = [
        ("Undefined", .undefinedAttributeType),
        ("Integer 16", .integer16AttributeType),
        ("Integer 32", .integer32AttributeType),
        ("Integer 64", .integer64AttributeType),
        ("Decimal", .decimalAttributeType),
        ("Double", .doubleAttributeType),
        ("Float", .floatAttributeType),
        ("String", .stringAttributeType),
        ("Boolean", .booleanAttributeType),
        ("Date", .dateAttributeType),
        ("Binary", .binaryDataAttributeType),
        ("UUID", .UUIDAttributeType),
        ("URI", .URIAttributeType),
        ("Transformable", .transformableAttributeType),
        ("ObjectID", .objectIDAttributeType),
        ("Composite", .compositeAttributeType),
    ]

    static func attributeType(named name: String) -> AttributeType? {
        attributeTypeNames.first { $0.0 == name }?.1
    }

    static func name(of type: AttributeType) -> String {
        attributeTypeNames.first { $0.1 == type }?.0 ?? "Undefined"
    }

    /// `deletionRule="…"` spellings.
    static let deleteRuleNames: [(String, DeleteRule)] = [
        ("No Action", .noActionDeleteRule),
        ("Nullify", .nullifyDeleteRule),
        ("Cascade", .cascadeDeleteRule),
        ("Deny", .denyDeleteRule),
    ]

    static func deleteRule(named name: String) -> DeleteRule? {
        deleteRuleNames.first { $0.0 == name }?.1
    }

    static func name(of rule: DeleteRule) -> String {
        deleteRuleNames.first { $0.1 == rule }?.0 ?? "Nullify"
    }

    /// `YES`/`NO` (Xcode), also `true`/`false` and `1`/`0` as hand-written files use.
    static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "1": true
        case "no", "false", "0": false
        default: nil
        }
    }

    static func yes(_ value: Bool) -> String? { value ? "YES" : nil }

    /// An integer literal: optional sign, then ASCII digits only.
    static func isIntegerLiteral(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        if let first = scalars.first, first == "-" || first == "+" { scalars = scalars.dropFirst() }
        return !scalars.isEmpty && scalars.allSatisfy { ("0"..."9").contains($0) }
    }

    /// A finite or infinite double written as Swift and Xcode write them.
    static func double(_ text: String) -> Double? {
        Double(text.trimmingCharacters(in: .whitespaces))
    }

    static func decimal(_ text: String) -> Decimal? {
        Decimal(exactLiteral: text.trimmingCharacters(in: .whitespaces))
    }

    /// A double spelled so it never reads back as an integer literal.
    static func text(_ value: Double) -> String {
        let text = "\(value)"
        return isIntegerLiteral(text) ? text + ".0" : text
    }

    /// A decimal spelled so it never reads back as an integer literal.
    static func text(_ value: Decimal) -> String {
        let text = "\(value)"
        return isIntegerLiteral(text) ? text + ".0" : text
    }

    /// Dates are written as seconds since 2001-01-01 00:00:00 UTC.
    static func text(_ date: Date) -> String {
        let interval = date.timeIntervalSinceReferenceDate
        if let whole = Int64(exactly: interval) { return "\(whole)" }
        return "\(interval)"
    }

    // MARK: - Known XML attributes per element

    /// Root attributes that describe the document and the tool, kept verbatim.
    static let documentAttributes: Set<String> = [
        "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion",
        "sourceLanguage", "usedWithSwiftData", "usedWithCloudKit", "macOSVersion", "iOSVersion", "name",
    ]

    /// Attributes that only steer Xcode's code generation or CloudKit sync:
    /// accepted and ignored without a warning.
    static let codeGenerationOnly: Set<String> = ["usesScalarValueType", "syncable"]
}
