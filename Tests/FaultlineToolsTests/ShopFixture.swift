import Faultline

/// The model `ModelGenerateTests` generates code for (as the `Shop` model:
/// its registration type is `ShopModel`): every attribute type
/// the typed keys carry, a derived attribute, to-one, to-many and ordered
/// to-many relationships, an entity with a sub-entity, and a property named
/// by a Swift keyword. Its generated code is compiled into this test target
/// (`GeneratedShop/`), so the tests run exactly what the generator writes.
enum ShopFixture {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Customer") {
                Attribute("name", .string).required()
                Attribute("joined", .date)
                Attribute("vip", .boolean)
                Attribute("credit", .decimal)
                Attribute("badge", .UUIDAttributeType)
                Relationship("orders", to: "Order", inverse: "customer", toMany: true)
            }
            Entity("Order") {
                Attribute("number", .integer32)
                Attribute("total", .double)
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
                Attribute("title", .string)
                Attribute("default", .string)
                Relationship("lines", to: "LineItem", inverse: "product", toMany: true)
            }
            Entity("DigitalProduct", parent: "Product") {
                Attribute("link", .URIAttributeType)
            }
        }
    }
}
