// Apple's iPhoneCoreDataRecipes model (Swift port by alhoqbani), rebuilt in code
// from `Recipes/Recipes.xcdatamodeld/Recipes.xcdatamodel/contents` in the
// `alhoqbani__AppleSample-iPhoneCoreDataRecipes` fixture, property for property.

import Foundation
@testable import Faultline

/// Stores bytes as they are: stands in for the sample's `ImageToDataTransformer`
/// (a UIImage ↔ PNG transformer), which only has to exist for the model to validate.
struct FixtureDataTransformer: AttributeValueTransformer {
    struct NotData: Error {}

    func encode(_ value: Any) throws -> Data {
        guard let data = value as? Data else { throw NotData() }
        return data
    }

    func decode(_ data: Data) throws -> Any { data }
}

enum RecipesFixtureModel {
    static let imageTransformerName = "ImageToDataTransformer"

    static func model() -> ManagedObjectModel {
        ValueTransformerRegistry.register(FixtureDataTransformer(), forName: imageTransformerName)
        return ManagedObjectModel {
            Entity("Image") {
                Attribute("image", .transformable).transformer(imageTransformerName)
                Relationship("recipe", to: "Recipe", inverse: "image")
            }
            Entity("Ingredient") {
                Attribute("amount", .string)
                Attribute("displayOrder", .integer16).defaultValue(.integer(0))
                Attribute("name", .string)
                Relationship("recipe", to: "Recipe", inverse: "ingredients")
            }
            Entity("Recipe") {
                Attribute("instructions", .string)
                Attribute("name", .string)
                Attribute("overview", .string)
                Attribute("prepTime", .string)
                Attribute("thumbnailImage", .transformable).transformer(imageTransformerName)
                // One-to-one with Image.recipe: Core Data keeps a key on both sides.
                Relationship("image", to: "Image", inverse: "recipe", deleteRule: .cascade)
                Relationship("ingredients", to: "Ingredient", inverse: "recipe", toMany: true, deleteRule: .cascade)
                Relationship("type", to: "RecipeType", inverse: "recipes")
            }
            Entity("RecipeType") {
                Attribute("name", .string)
                Relationship("recipes", to: "Recipe", inverse: "type", toMany: true)
            }
        }
    }
}
