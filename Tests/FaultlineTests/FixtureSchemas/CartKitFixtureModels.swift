// CartKit's two legacy-store models (`Karim-ezzedine__CartKit` fixture), rebuilt
// in code.

@testable import Faultline

enum CartKitFixtureModels {
    /// The Core Data model that wrote `CartStorage_v1.sqlite`.
    ///
    /// NOT the committed `CartStorage.xcdatamodeld`: per the fixture's SOURCE.md
    /// that model is newer than the v1 store. This is the v1 variant the store
    /// itself shows (its tables and the model archived in its Z_MODELCACHE):
    ///  - CDCart has no `sessionId` and no `promotionKindsJSON` (added later);
    ///  - CDCartItem.modifiers and CDCartItemModifier.item have NO inverse
    ///    (the committed model pairs them): hence both `ZITEM` and the hidden
    ///    key `Z2MODIFIERS` in ZCDCARTITEMMODIFIER.
    /// Everything else follows the committed model file.
    /// (Column order is not compared; for the record, Faultline writes
    /// ZCDCARTITEMMODIFIER's keys as `Z2MODIFIERS, ZITEM`, Core Data as
    /// `ZITEM, Z2MODIFIERS`: the only order difference across the fixtures.)
    static func coreDataV1() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("CDCart") {
                Attribute("context", .string)
                Attribute("createdAt", .date).required()
                Attribute("displayName", .string)
                Attribute("id", .string).required()
                Attribute("maxItemCount", .integer32).defaultValue(.integer(0))
                Attribute("metadataJSON", .binaryData)
                Attribute("minSubtotalAmount", .decimal).defaultValue(.decimal(0))
                Attribute("minSubtotalCurrencyCode", .string)
                Attribute("profileId", .string)
                Attribute("status", .string).required()
                Attribute("storeId", .string).required()
                Attribute("storeImageURL", .string)
                Attribute("updatedAt", .date).required()
                Relationship("items", to: "CDCartItem", inverse: "cart", toMany: true, deleteRule: .cascade)
            }
            Entity("CDCartItem") {
                Attribute("availableStock", .integer32).defaultValue(.integer(0))
                Attribute("id", .string).required()
                Attribute("imageURL", .string)
                Attribute("productId", .string).required()
                Attribute("quantity", .integer32).required().defaultValue(.integer(0))
                Attribute("totalPriceAmount", .decimal).defaultValue(.decimal(0))
                Attribute("totalPriceCurrencyCode", .string)
                Attribute("unitPriceAmount", .decimal).required().defaultValue(.decimal(0))
                Attribute("unitPriceCurrencyCode", .string)
                Relationship("cart", to: "CDCart", inverse: "items")
                Relationship("modifiers", to: "CDCartItemModifier", toMany: true, deleteRule: .cascade)
            }
            Entity("CDCartItemModifier") {
                Attribute("id", .string).required()
                Attribute("name", .string).required()
                Attribute("priceDeltaAmount", .decimal).required().defaultValue(.decimal(0))
                Attribute("priceDeltaCurrencyCode", .string).required()
                Relationship("item", to: "CDCartItem")
            }
        }
    }

    /// The SwiftData model that wrote `CartKitSwiftData_v1.sqlite`. Its Swift
    /// source is not in the fixture: rebuilt from the store's own schema (and the
    /// model archived in its Z_MODELCACHE, for types and optionality): Swift `Int`
    /// is Integer 64; `@Attribute(.unique) var id` is a uniqueness constraint on
    /// `id`; the to-many relationships have no inverse, so they are hidden keys
    /// in the destination (`Z3ITEMS`, `Z1MODIFIERS`).
    static func swiftDataV1() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("CartItemModel") {
                Attribute("availableStock", .integer64)
                Attribute("id", .string).required().unique()
                Attribute("imageURLString", .string)
                Attribute("productId", .string).required()
                Attribute("quantity", .integer64).required()
                Attribute("totalPriceAmount", .decimal).required()
                Attribute("totalPriceCurrencyCode", .string).required()
                Attribute("unitPriceAmount", .decimal).required()
                Attribute("unitPriceCurrencyCode", .string).required()
                Relationship("modifiers", to: "CartItemModifierModel", toMany: true, optional: false,
                             deleteRule: .cascade)
            }
            Entity("CartItemModifierModel") {
                Attribute("id", .string).required().unique()
                Attribute("name", .string).required()
                Attribute("priceDeltaAmount", .decimal).required()
                Attribute("priceDeltaCurrencyCode", .string).required()
            }
            Entity("CartModel") {
                Attribute("context", .string)
                Attribute("createdAt", .date).required()
                Attribute("displayName", .string)
                Attribute("id", .string).required().unique()
                Attribute("maxItemCount", .integer64)
                Attribute("metadataJSON", .binaryData)
                Attribute("minSubtotalAmount", .decimal)
                Attribute("minSubtotalCurrencyCode", .string)
                Attribute("profileId", .string)
                Attribute("status", .string).required()
                Attribute("storeId", .string).required()
                Attribute("storeImageURLString", .string)
                Attribute("updatedAt", .date).required()
                Relationship("items", to: "CartItemModel", toMany: true, optional: false, deleteRule: .cascade)
            }
        }
    }
}
