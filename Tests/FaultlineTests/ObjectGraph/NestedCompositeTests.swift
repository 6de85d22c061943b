import Foundation
import Testing
@testable import Faultline

/// Nested composite attributes round-trip as nested dictionaries, dotted
/// element keys still work, and a misspelt element key or a wrong type is a
/// typed error that changes nothing.
@Suite("Nested composite attributes")
struct NestedCompositeTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Customer") {
                Attribute("name", .string)
                Composite("address") {
                    Attribute("city", .string)
                    Composite("street") {
                        Attribute("name", .string)
                        Attribute("number", .integer64)
                    }
                }
                Composite("colors") {
                    Attribute("primary", .string)
                    Attribute("secondary", .string)
                }
            }
        }
    }

    @Test("A nested dictionary is saved and read back nested, through a new context")
    func nestedRoundTrip() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let id: ManagedObjectID = try context.performAndWait {
            let customer = try context.insertNewObject(forEntityName: "Customer")
            try customer.setValue(["city": "Toronto", "street": ["name": "King", "number": 12]], forKey: "address")
            try context.save()
            return customer.objectID
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let address = try #require(try reader.existingObject(with: id).value(forKey: "address") as? [String: Any])
            #expect(address["city"] as? String == "Toronto")
            let street = try #require(address["street"] as? [String: Any])
            #expect(street["name"] as? String == "King")
            #expect(street["number"] as? Int64 == 12)
        }
    }

    @Test("Dotted element keys set the same leaves as nested dictionaries")
    func dottedKeys() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let customer = try context.insertNewObject(forEntityName: "Customer")
            try customer.setValue(["city": "Oslo", "street.name": "Karl Johans gate", "street.number": 1], forKey: "address")
            let street = (customer.value(forKey: "address") as? [String: Any])?["street"] as? [String: Any]
            #expect(street?["name"] as? String == "Karl Johans gate")
            #expect(street?["number"] as? Int64 == 1)
        }
    }

    @Test("A misspelt element key, at any depth, or a wrong type throws and changes nothing")
    func unknownElementRefused() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let customer = try context.insertNewObject(forEntityName: "Customer")
            try customer.setValue(["primary": "red", "secondary": "blue"], forKey: "colors")
            try customer.setValue(["city": "Lima", "street": ["name": "Jirón", "number": 3]], forKey: "address")
            #expect(throws: ObjectAccessError.unknownKey(entity: "Customer", key: "colors.primray")) {
                try customer.setValue(["primray": "green"], forKey: "colors")
            }
            #expect(throws: ObjectAccessError.unknownKey(entity: "Customer", key: "address.street.nmber")) {
                try customer.setValue(["city": "Quito", "street": ["name": "Sucre", "nmber": 4]], forKey: "address")
            }
            #expect(throws: ObjectAccessError.wrongType(entity: "Customer", key: "address.street.number", expected: "integer64AttributeType")) {
                try customer.setValue(["city": "Quito", "street": ["number": "four"]], forKey: "address")
            }
            let colors = customer.value(forKey: "colors") as? [String: Any]
            #expect(colors?["primary"] as? String == "red")
            #expect(colors?["secondary"] as? String == "blue")
            let address = customer.value(forKey: "address") as? [String: Any]
            #expect(address?["city"] as? String == "Lima")
            #expect((address?["street"] as? [String: Any])?["number"] as? Int64 == 3)
        }
    }
}
