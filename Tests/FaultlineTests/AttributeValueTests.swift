import Foundation
import Testing
@testable import Faultline

@Suite("Default values are typed; Core Data-style Any values convert exactly or are reported")
struct AttributeValueTests {
    @Test("Any values convert to typed values")
    func conversions() {
        let uuid = UUID()
        let url = URL(fileURLWithPath: "/tmp/x")
        #expect(AttributeValue(any: 42) == .integer(42))
        #expect(AttributeValue(any: Int16(-3)) == .integer(-3))
        #expect(AttributeValue(any: true) == .bool(true))
        #expect(AttributeValue(any: 1.5) == .double(1.5))
        #expect(AttributeValue(any: Float(0.5)) == .double(0.5))
        #expect(AttributeValue(any: Decimal(7)) == .decimal(7))
        #expect(AttributeValue(any: "x") == .string("x"))
        #expect(AttributeValue(any: uuid) == .uuid(uuid))
        #expect(AttributeValue(any: url) == .uri(url))
        #expect(AttributeValue(any: Data([1, 2])) == .data(Data([1, 2])))
        #expect(AttributeValue(any: ["primary": "red", "depth": 2] as [String: Any]) ==
                .composite(["primary": .string("red"), "depth": .integer(2)]))
        #expect(AttributeValue(any: UInt64.max) == nil)
        #expect(AttributeValue(any: NSObject()) == nil)
    }

    @Test("coercion to an attribute type is exact", arguments: [
        (AttributeValue.integer(40_000), AttributeType.integer16AttributeType, AttributeValue?.none),
        (.integer(32_767), .integer16AttributeType, .integer(32_767)),
        (.integer(0), .doubleAttributeType, .double(0)),
        (.double(2.5), .integer32AttributeType, nil),
        (.double(2.0), .integer32AttributeType, .integer(2)),
        (.double(0.1), .decimalAttributeType, .decimal(Decimal(string: "0.1") ?? 0)),
        (.integer(1), .booleanAttributeType, .bool(true)),
        (.integer(2), .booleanAttributeType, nil),
        (.string("x"), .dateAttributeType, nil),
        (.null, .UUIDAttributeType, .null),
        (.data(Data()), .transformableAttributeType, .data(Data())),
        (.string("x"), .objectIDAttributeType, nil),
        (.integer(Int64.max), .doubleAttributeType, nil),
    ])
    func coercion(value: AttributeValue, type: AttributeType, expected: AttributeValue?) {
        #expect(value.coerced(to: type) == expected)
    }

    @Test("defaultValue round-trips through the typed value; a loose default is coerced in the snapshot")
    func defaultValueProperty() throws {
        let price = BlogModel.attribute("price", .doubleAttributeType)
        price.defaultValue = 3
        #expect(price.defaultAttributeValue == .integer(3))
        #expect(price.defaultValue as? Int64 == 3)
        let checked = try BlogModel.single([price]).checked()
        #expect(checked.entities[0].attribute(named: "price")?.defaultValue == .double(3))
        let cleared = BlogModel.attribute("note", .stringAttributeType)
        cleared.defaultValue = "x"
        cleared.defaultValue = nil
        #expect(cleared.defaultAttributeValue == nil)
    }

    @Test("an unconvertible default is reported by checked(), not a crash; replacing it clears the issue")
    func unconvertibleDefault() throws {
        let attribute = BlogModel.attribute("tag", .stringAttributeType)
        attribute.defaultValue = NSObject()
        #expect(attribute.defaultValue == nil)
        let model = BlogModel.single([attribute])
        #expect(issues(of: model).map(\.kind) == [.defaultValueNotConvertible(typeName: "NSObject")])
        attribute.defaultValue = "fine"
        #expect(issues(of: model).isEmpty)
    }

    @Test("composite defaults are checked element by element and spread onto the leaves")
    func compositeDefaults() throws {
        let scheme = CompositeAttributeDescription()
        scheme.name = "scheme"
        scheme.elements = [BlogModel.attribute("primary", .stringAttributeType), BlogModel.attribute("depth", .integer16AttributeType)]
        scheme.defaultValue = ["primary": "red", "depth": 2] as [String: Any]
        let checked = try BlogModel.single([scheme]).checked()
        #expect(checked.entities[0].attribute(named: "scheme.primary")?.defaultValue == .string("red"))
        #expect(checked.entities[0].attribute(named: "scheme.depth")?.defaultValue == .integer(2))

        let bad = CompositeAttributeDescription()
        bad.name = "bad"
        bad.elements = [BlogModel.attribute("depth", .integer16AttributeType)]
        bad.defaultAttributeValue = .composite(["depth": .string("deep"), "ghost": .integer(1)])
        let kinds = issues(of: BlogModel.single([bad])).map(\.kind)
        #expect(kinds.contains(.defaultValueTypeMismatch(.integer16AttributeType)))
        #expect(kinds.contains(.unknownCompositeDefaultKey("ghost")))
    }
}
