import Faultline
import Foundation

/// The model `ModelGenerateTests` generates code for (as the `Shop` model:
/// its registration type is `ShopModel`): every attribute type
/// the typed keys carry, a transformable of `[String]`, a nested composite,
/// every kind of validation rule (integer, double and
/// decimal bounds, lengths, a pattern with a backslash, an escaped control
/// character and a non-ASCII letter, date bounds), a derived attribute, to-one, to-many and ordered
/// to-many relationships, an entity with a sub-entity, and a property named
/// by a Swift keyword. Its generated code is compiled into this test target
/// (`GeneratedShop/`), so the tests run exactly what the generator writes.
enum ShopFixture {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Customer") {
                Attribute("name", .string).required().validated(.minimumLength(1), .maximumLength(80), .pattern(".*\\S.*"))
                Attribute("joined", .date).validated(
                    .earliestDate(Date(timeIntervalSince1970: 0)), .latestDate(Date(timeIntervalSince1970: 2_000_000_000)))
                Attribute("vip", .boolean)
                Attribute("credit", .decimal).validated(.minimumValue(.decimalLiteral("-1000.25")))
                Attribute("badge", .UUIDAttributeType)
                Attribute("tags", .transformableAttributeType).valueClass("[String]")
                Composite("address") {
                    Attribute("city", .string).validated(.minimumLength(2))
                    Composite("street") {
                        Attribute("name", .string)
                        Attribute("number", .integer64)
                    }
                }
                Relationship("orders", to: "Order", inverse: "customer", toMany: true)
            }
            Entity("Order") {
                Attribute("number", .integer32).validated(.minimumValue(.integer(1)), .maximumValue(.integer(2_147_483_647)))
                Attribute("total", .double).validated(.minimumValue(.double(0.5)))
                Attribute("notes", .binaryData)
                Derived("lineCount", .integer64, "lines.@count")
                Relationship("customer", to: "Customer", inverse: "orders")
                Relationship("lines", to: "LineItem", inverse: "order", toMany: true, ordered: true)
            }
            Entity("LineItem") {
                Attribute("quantity", .integer16)
                Relationship("order", to: "Order", inverse: "lines")
                Relationship("product", to: "Product", inverse: "lines")
            }
            Entity("Product") {
                Attribute("title", .string).validated(.pattern("[^\\t\u{2028}é]+"))
                Attribute("default", .string)
                Relationship("lines", to: "LineItem", inverse: "product", toMany: true)
            }
            Entity("DigitalProduct", parent: "Product") {
                Attribute("link", .URIAttributeType)
            }
        }
    }
}
