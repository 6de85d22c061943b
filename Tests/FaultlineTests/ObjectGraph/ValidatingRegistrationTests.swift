import Foundation
import Testing
@testable import Faultline

/// `register(_:forEntityName:validate: true)`: the run-time form of `faultline
/// model validate`. A class in step with its entity registers; one that has
/// drifted is refused with every disagreement listed — keys naming no
/// property or of the wrong type, properties without a key, an optional
/// attribute behind a non-optional key, validation rules missing, added or
/// changed (exactly: numbers by value, patterns byte for byte) — while a plain
/// registration keeps refusing only keys that do not fit.
@Suite("A validating registration lists every disagreement between a class and its entity")
struct ValidatingRegistrationTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Item") {
                Attribute("name", .string).required().validated(.minimumLength(1), .maximumLength(80), .pattern(".*\\S.*"))
                Attribute("count", .integer32).validated(.minimumValue(.integer(0)), .maximumValue(.integer(255)))
                Attribute("price", .decimal).validated(.minimumValue(.decimalLiteral("0.01")))
                Attribute("stamp", .date).validated(.latestDate(Date(timeIntervalSince1970: 2_000_000_000)))
                Attribute("note", .string)
                Relationship("tags", to: "Tag", inverse: "items", toMany: true)
            }
            Entity("Tag") {
                Attribute("label", .string)
                Relationship("items", to: "Item", inverse: "tags", toMany: true)
            }
        }
    }

    final class Item: ManagedObject {
        static let name = AttributeKey<String>("name", rules: [.minimumLength(1), .maximumLength(80), .pattern(#".*\S.*"#)])
        static let count = AttributeKey<Int64?>("count", rules: [.minimumValue(.double(0)), .maximumValue(.integer(255))])
        static let price = AttributeKey<Decimal?>("price", rules: [.minimumValue(.decimalLiteral("0.010"))])
        static let stamp = AttributeKey<Date?>("stamp", rules: [.latestDate(Date(timeIntervalSinceReferenceDate: 1_021_692_800))])
        static let note = AttributeKey<String?>("note")
        static let tags = ToManyKey<Tag>("tags")
        override class var typedKeys: [any TypedPropertyKey] { [name, count, price, stamp, note, tags] }
    }

    final class Tag: ManagedObject {
        static let label = AttributeKey<String?>("label")
        static let items = ToManyKey<Item>("items")
        override class var typedKeys: [any TypedPropertyKey] { [label, items] }
    }

    final class DriftedItem: ManagedObject {
        static let name = AttributeKey<String?>("name", rules: [.minimumLength(1), .pattern(".*[^\\s].*")])
        static let count = AttributeKey<Int64?>("count", rules: [.minimumValue(.integer(1)), .maximumValue(.integer(255))])
        static let price = AttributeKey<Decimal?>("price")
        static let note = AttributeKey<String>("note", rules: [.maximumLength(10)])
        static let colour = AttributeKey<String?>("colour")
        static let stampAsText = AttributeKey<String?>("stamp")
        override class var typedKeys: [any TypedPropertyKey] { [name, count, price, note, colour, stampAsText] }
    }

    @Test("Classes in step with their entities register; the spelling of a rule's value does not matter")
    func inStep() throws {
        let container = try PersistentContainer(model: Self.model(), location: .inMemory)
        try container.register(Item.self, forEntityName: "Item", validate: true)
        try container.register(Tag.self, forEntityName: "Tag", validate: true)
    }

    @Test("A drifted class is refused with every disagreement, in declaration order, then the properties without a key")
    func drifted() throws {
        let container = try PersistentContainer(model: Self.model(), location: .inMemory)
        let drift = try #require(throws: ClassModelDrift.self) {
            try container.register(DriftedItem.self, forEntityName: "Item", validate: true)
        }
        #expect(drift.entityName == "Item")
        #expect(drift.className.hasSuffix("DriftedItem"))
        #expect(drift.problems == [
            #"name: rule maximumLength 80 is in the model, not in the declaration"#,
            #"name: rule pattern differs: the model has ".*\\S.*", the declaration ".*[^\\s].*""#,
            "count: rule minimumValue differs: the model has 0, the declaration 1",
            "price: rule minimumValue 0.01 is in the model, not in the declaration",
            "note: the attribute is optional, the key's value type does not hold nil",
            "note: rule maximumLength 10 is declared, not in the model",
            "colour: Item has no property 'colour'",
            "stamp: Item.stamp needs a key of dateAttributeType",
            "tags: the entity's property has no key",
        ])
        #expect(drift.description.hasPrefix("class "))
        #expect(drift.description.contains("\n  count: rule minimumValue differs"))
    }

    @Test("Without validate, rules and missing keys are not checked; a key that does not fit still is")
    func plainRegistration() throws {
        let container = try PersistentContainer(model: Self.model(), location: .inMemory)
        #expect(throws: ObjectAccessError.unknownKey(entity: "Item", key: "colour")) {
            try container.register(DriftedItem.self, forEntityName: "Item")
        }
        final class LooseItem: ManagedObject {
            override class var typedKeys: [any TypedPropertyKey] { [DriftedItem.name, DriftedItem.note] }
        }
        try container.register(LooseItem.self, forEntityName: "Item")
        #expect(throws: ClassModelDrift.self) { try container.register(LooseItem.self, forEntityName: "Item", validate: true) }
    }
}
