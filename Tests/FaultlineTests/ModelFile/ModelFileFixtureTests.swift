// Every real model in ../shared/coredata-stores reads without error, with the
// entities, attributes and relationships its file declares, and checks.

import Foundation
import Testing
import Faultline

@Suite("Model files: every fixture model from real apps reads and checks")
struct ModelFileFixtureTests {
    @Test("every version of every fixture bundle reads without error and passes checked()",
          arguments: ModelFileTestSupport.Fixture.allCases)
    func readsAndChecks(_ fixture: ModelFileTestSupport.Fixture) throws {
        ModelFileTestSupport.registerTransformers()
        let bundle = try ModelFileReader().read(at: try ModelFileTestSupport.fixture(fixture))
        #expect(!bundle.versions.isEmpty)
        #expect(bundle.versions.filter(\.isCurrent).count == 1)
        for version in bundle.versions {
            let expectedWarnings = version.extras.fetchedProperties.values.joined().count
            #expect(version.warnings.count == expectedWarnings, "\(version.name): \(version.warnings)")
            _ = try version.model.checked()
        }
    }

    @Test("Recipes: four entities, transformable images, one-to-one with keys on both sides")
    func recipes() throws {
        let bundle = try ModelFileReader().read(at: try ModelFileTestSupport.fixture(.recipes))
        let version = try #require(bundle.current)
        #expect(version.name == "Recipes" && bundle.versions.count == 1)
        let model = version.model
        #expect(model.entities.compactMap(\.name) == ["Image", "Ingredient", "Recipe", "RecipeType"])
        let recipe = try #require(model.entitiesByName["Recipe"])
        #expect(Set(recipe.attributesByName.keys) == ["instructions", "name", "overview", "prepTime", "thumbnailImage"])
        #expect(Set(recipe.relationshipsByName.keys) == ["image", "ingredients", "type"])
        #expect(recipe.attributesByName["thumbnailImage"]?.attributeType == .transformableAttributeType)
        #expect(recipe.attributesByName["thumbnailImage"]?.valueTransformerName == "ImageToDataTransformer")
        let image = try #require(recipe.relationshipsByName["image"])
        #expect(!image.isToMany && image.deleteRule == .cascadeDeleteRule)
        #expect(image.inverseRelationship?.name == "recipe" && image.inverseRelationship?.isToMany == false)
        #expect(recipe.relationshipsByName["ingredients"]?.isToMany == true)
        let displayOrder = model.entitiesByName["Ingredient"]?.attributesByName["displayOrder"]
        #expect(displayOrder?.attributeType == .integer16AttributeType && displayOrder?.defaultAttributeValue == .integer(0))
    }

    @Test("JimGroceryDude: six versions, version 6 current, abstract Location with two sub-entities, fetch requests")
    func groceryDude() throws {
        let bundle = try ModelFileReader().read(at: try ModelFileTestSupport.fixture(.groceryDude))
        #expect(bundle.name == "Model")
        #expect(bundle.versions.map(\.name) == ["Model", "Model 2", "Model 3", "Model 4", "Model 5", "Model 6"])
        #expect(bundle.current?.name == "Model 6")
        #expect(bundle.version(named: "Model")?.model.entities.compactMap(\.name) == ["Item"])
        #expect(bundle.version(named: "Model 3")?.model.entities.compactMap(\.name) == ["Amount", "Item"])
        let model = try #require(bundle.current?.model)
        #expect(model.entities.compactMap(\.name) == ["Item", "Location", "LocationAtHome", "LocationAtShop", "Unit"])
        let location = try #require(model.entitiesByName["Location"])
        #expect(location.isAbstract)
        #expect(Set(location.subentities.compactMap(\.name)) == ["LocationAtHome", "LocationAtShop"])
        #expect(model.entitiesByName["LocationAtShop"]?.attributesByName.keys.sorted() == ["aisle", "summary"])
        let item = try #require(model.entitiesByName["Item"])
        #expect(item.attributesByName["name"]?.isIndexed == true)
        #expect(item.attributesByName["name"]?.defaultAttributeValue == .string("New Item"))
        #expect(item.attributesByName["listed"]?.defaultAttributeValue == .bool(true))
        #expect(item.attributesByName["quantity"]?.defaultAttributeValue == .double(1))
        #expect(item.attributesByName["photoData"]?.attributeType == .binaryDataAttributeType)
        #expect(Set(item.relationshipsByName.keys) == ["locationAtHome", "locationAtShop", "unit"])
        let templates = try #require(bundle.current?.extras.fetchRequestTemplates)
        #expect(templates.map(\.name) == ["ShoppingList", "UnknownLocationAtHome", "UnknownLocationAtShop"])
        #expect(templates[1].predicateString == "storedIn == \"..UnknownLocation..\"")
        #expect(bundle.version(named: "Model 5")?.model.entitiesByName["Unit"]?.relationshipsByName["items"]?.deleteRule == .denyDeleteRule)
    }

    @Test("EasyLife: three versions, 1.5.0 current, reflexive many-to-many")
    func easyLife() throws {
        let bundle = try ModelFileReader().read(at: try ModelFileTestSupport.fixture(.easyLife))
        #expect(bundle.versions.map(\.name) == ["EasyLife", "EasyLife 1.3.0", "EasyLife 1.5.0"])
        #expect(bundle.current?.name == "EasyLife 1.5.0")
        let todo = try #require(bundle.current?.model.entitiesByName["TodoItem"])
        #expect(todo.managedObjectClassName == ".TodoItem")
        let blocking = try #require(todo.relationshipsByName["blocking"])
        #expect(blocking.isToMany && blocking.destinationEntity === todo)
        #expect(blocking.inverseRelationship === todo.relationshipsByName["blockedBy"])
        #expect(todo.attributesByName["repeats"]?.validationRules == [.minimumValue(.integer(0))])
        #expect(todo.attributesByName["date"]?.attributeType == .dateAttributeType)
        #expect(bundle.version(named: "EasyLife")?.model.entities.compactMap(\.name) == ["TodoItem"])
    }

    @Test("CartKit: decimals, required attributes, and Core Data's hashes from the compiled .momd")
    func cartKit() throws {
        let bundle = try ModelFileReader().read(at: try ModelFileTestSupport.fixture(.cartKit))
        #expect(bundle.bundleWarnings.isEmpty, "\(bundle.bundleWarnings)")
        let version = try #require(bundle.current)
        #expect(version.name == "CartStorage")
        let cart = try #require(version.model.entitiesByName["CDCart"])
        #expect(cart.attributesByName["createdAt"]?.isOptional == false)
        #expect(cart.attributesByName["context"]?.isOptional == true)
        #expect(cart.attributesByName["minSubtotalAmount"]?.defaultAttributeValue == .decimal(0))
        #expect(cart.relationshipsByName["items"]?.deleteRule == .cascadeDeleteRule)
        #expect(version.extras.documentAttributes["usedWithSwiftData"] == "YES")
        let hashes = try #require(version.coreDataEntityVersionHashes)
        #expect(Set(hashes.keys) == ["CDCart", "CDCartItem", "CDCartItemModifier"])
        #expect(hashes.values.allSatisfy { $0.count == 32 })
        #expect(hashes["CDCart"]?.prefix(4) == Data([0x67, 0x13, 0x7B, 0xD0]))
        #expect(version.coreDataVersionChecksum == "RV83lyqrxa85p8T4dUf5Vhtv6Ypawk/doB6mVJlOAeY=")
    }

    @Test("a bare .xcdatamodel folder and a lone contents file read as one current version")
    func singleFiles() throws {
        let bundleURL = try ModelFileTestSupport.fixture(.easyLife)
        let folder = bundleURL.appendingPathComponent("EasyLife 1.3.0.xcdatamodel")
        let fromFolder = try ModelFileReader().read(at: folder)
        #expect(fromFolder.versions.map(\.name) == ["EasyLife 1.3.0"])
        #expect(fromFolder.current?.model.entities.count == 2)
        let fromFile = try ModelFileReader().read(at: folder.appendingPathComponent("contents"))
        #expect(fromFile.current?.name == "EasyLife 1.3.0")
        #expect(fromFile.current?.sourceURL?.lastPathComponent == "contents")
    }
}
