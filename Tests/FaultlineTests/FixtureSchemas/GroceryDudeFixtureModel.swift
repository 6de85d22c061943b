// Grocery Dude's model version 6 ("Learning Core Data for iOS", linjk's copy),
// rebuilt in code from `Model.xcdatamodeld/Model 6.xcdatamodel/contents` in the
// `linjk__JimGroceryDude` fixture: an abstract `Location` with two sub-entities
// sharing one table. The model's three fetch request templates (ShoppingList,
// UnknownLocationAtHome, UnknownLocationAtShop) do not touch the schema and are
// left out.

@testable import Faultline

enum GroceryDudeFixtureModel {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Item") {
                Attribute("collected", .boolean).defaultValue(.bool(false))
                Attribute("listed", .boolean).defaultValue(.bool(true))
                // `indexed="YES"` in the model file.
                Attribute("name", .string).defaultValue(.string("New Item")).indexed()
                Attribute("photoData", .binaryData)
                Attribute("quantity", .float).defaultValue(.double(1))
                Relationship("locationAtHome", to: "LocationAtHome", inverse: "items")
                Relationship("locationAtShop", to: "LocationAtShop", inverse: "items")
                Relationship("unit", to: "Unit", inverse: "items")
            }
            Entity("Location", abstract: true) {
                Attribute("summary", .string)
            }
            Entity("LocationAtHome", parent: "Location") {
                Attribute("storedIn", .string)
                Relationship("items", to: "Item", inverse: "locationAtHome", toMany: true)
            }
            Entity("LocationAtShop", parent: "Location") {
                Attribute("aisle", .string)
                Relationship("items", to: "Item", inverse: "locationAtShop", toMany: true)
            }
            Entity("Unit") {
                Attribute("name", .string)
                Relationship("items", to: "Item", inverse: "unit", toMany: true)
            }
        }
    }
}
