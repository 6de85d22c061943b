// Every fixture store that carries Core Data's model cache: the model decoded
// from Z_MODELCACHE opens the store through the Core Data store matcher, and,
// where a committed model file wrote the store, equals that file's model.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

@Suite("Model cache fixtures")
struct ModelCacheFixtureTests {
    init() {
        // The Recipes model names ImageToDataTransformer.
        _ = RecipesFixtureModel.model()
    }

    @Test("Each store's cached model opens the store it was read from",
          arguments: CompiledModelFixtures.cachedStores.map(\.store))
    func cachedModelOpensItsStore(store: String) throws {
        let copy = try StoreCopy(store)
        defer { copy.remove() }
        let version = try CompiledModelReader.model(fromModelCacheOf: copy.url)
        // Grocery Dude's fetch request templates are the one thing left out.
        #expect(version.warnings.allSatisfy { $0.path == "/NSFetchRequestTemplates" }, "\(version.warnings)")
        #expect(!version.model.entities.isEmpty)
        let container = try PersistentContainer(coreDataStoreAt: copy.url, model: version.model)
        #expect(container.model.entities.count == version.model.entities.count)
    }

    @Test("The cached model has the entities, attributes and relationships of the committed model file the store matches",
          arguments: CompiledModelFixtures.cachedStores.filter { $0.model != nil }.map(\.store))
    func cachedModelHasModelFileStructure(store: String) throws {
        let model = try #require(CompiledModelFixtures.cachedStores.first { $0.store == store }?.model)
        let cached = try CompiledModelReader.model(fromModelCacheOf: try CompiledModelFixtures.url(store)).model.checked()
        let file = try CoreDataStoreFixture.modelFile(model.0, version: model.version).checked()
        #expect(CompiledModelFixtures.structure(cached) == CompiledModelFixtures.structure(file))
    }

    @Test("Grocery Dude's cached model equals model version 6 exactly")
    func groceryDudeEqualsModelFile() throws {
        let version = try CompiledModelReader.model(fromModelCacheOf: try CompiledModelFixtures.url(CoreDataStoreFixture.groceryStore))
        let fileModel = try CoreDataStoreFixture.modelFile(.groceryDude, version: "Model 6")
        #expect(faultlineEntityHashes(version.model) == faultlineEntityHashes(fileModel))
        // The cache carries the store's (Core Data's) hashes; the file, beside no .momd, Faultline's.
        fileModel.adoptCoreDataEntityVersionHashes(try #require(version.coreDataEntityVersionHashes))
        let cached = try version.model.checked()
        let file = try fileModel.checked()
        #expect(cached == file, "\(CompiledModelFixtures.differences(cached, file))")
    }

    /// The Recipes store was written by Apple's original sample model; the
    /// committed file is a later re-save that made everything optional and
    /// named every class. The schema is the same, so the store matches both.
    @Test("The Recipes cache keeps what Apple's original model said where the committed file differs")
    func recipesDifferFromModelFile() throws {
        let cached = try CompiledModelReader.model(fromModelCacheOf: try CompiledModelFixtures.url(CoreDataStoreFixture.recipesStore)).model
        let file = try CoreDataStoreFixture.modelFile(.recipes, version: nil)
        for name in ["Image", "RecipeType"] {
            #expect(cached.entitiesByName[name]?.managedObjectClassName == "ManagedObject")
            #expect(file.entitiesByName[name]?.managedObjectClassName == name)
        }
        #expect(cached.entitiesByName["Image"]?.relationshipsByName["recipe"]?.isOptional == false)
        #expect(file.entitiesByName["Image"]?.relationshipsByName["recipe"]?.isOptional == true)
        let ingredient = try #require(cached.entitiesByName["Ingredient"])
        #expect(ingredient.attributesByName["displayOrder"]?.isOptional == false)
        #expect(ingredient.attributesByName["name"]?.isOptional == false)
        #expect(ingredient.attributesByName["name"]?.defaultAttributeValue == .string("Ingredient Name"))
        #expect(file.entitiesByName["Ingredient"]?.attributesByName["name"]?.defaultAttributeValue == nil)
    }

    @Test("The Recipes cache maps names, types, flags, defaults, transformers, counts and delete rules")
    func recipesMapping() throws {
        let version = try CompiledModelReader.model(fromModelCacheOf: try CompiledModelFixtures.url(CoreDataStoreFixture.recipesStore))
        let model = version.model
        #expect(model.entities.map { $0.name ?? "" }.sorted() == ["Image", "Ingredient", "Recipe", "RecipeType"])
        let recipe = try #require(model.entitiesByName["Recipe"])
        #expect(recipe.managedObjectClassName == "Recipe")
        let image = try #require(model.entitiesByName["Image"]?.attributesByName["image"])
        #expect(image.attributeType == .transformableAttributeType)
        #expect(image.valueTransformerName == "ImageToDataTransformer")
        #expect(image.isOptional)
        let name = try #require(model.entitiesByName["Ingredient"]?.attributesByName["name"])
        #expect(name.defaultAttributeValue == .string("Ingredient Name"))
        #expect(!name.isOptional)
        let ingredients = try #require(recipe.relationshipsByName["ingredients"])
        #expect(ingredients.isToMany && ingredients.deleteRule == .cascadeDeleteRule)
        #expect(ingredients.destinationEntity?.name == "Ingredient")
        #expect(ingredients.inverseRelationship?.name == "recipe")
        // The store's metadata hashes are Core Data's for the model it cached.
        let store = try CompiledModelFixtures.url(CoreDataStoreFixture.recipesStore)
        let metadata = try StoreBootstrap.metadata(on: Connection(.file(store.path), configuration: .inspecting(store.path)))
        #expect(version.coreDataEntityVersionHashes == metadata.entityVersionHashes)
    }

    @Test("Grocery Dude's cache keeps the abstract parent, its sub-entities and the indexed attribute")
    func groceryDudeInheritance() throws {
        let model = try CompiledModelReader.model(fromModelCacheOf: try CompiledModelFixtures.url(CoreDataStoreFixture.groceryStore)).model
        let location = try #require(model.entitiesByName["Location"])
        #expect(location.isAbstract)
        #expect(location.subentities.compactMap(\.name).sorted() == ["LocationAtHome", "LocationAtShop"])
        #expect(model.entitiesByName["LocationAtHome"]?.superentity === location)
    }

    @Test("The SwiftData store's cache keeps uniqueness constraints and the configuration")
    func swiftDataConstraints() throws {
        let version = try CompiledModelReader.model(fromModelCacheOf: try CompiledModelFixtures.url(CoreDataStoreFixture.swiftDataStore))
        for entity in version.model.entities {
            #expect(entity.uniquenessConstraints == [["id"]], "\(entity.name ?? "")")
        }
        #expect(version.extras.configurations.map(\.name) == ["default"])
        #expect(version.extras.configurations.first?.entityNames.count == 3)
    }

    @Test("EasyLife's cache turns the archived validation predicate into a minimum")
    func easyLifeValidation() throws {
        let model = try CompiledModelReader.model(fromModelCacheOf: try CompiledModelFixtures.url("larromba__EasyLife/EasyLifeTests/EasyLife.sqlite")).model
        let repeats = try #require(model.entitiesByName["TodoItem"]?.attributesByName["repeats"])
        #expect(repeats.validationRules == [.minimumValue(.integer(0))])
    }

    @Test("A store without Z_MODELCACHE is reported as such")
    func noModelCache() throws {
        let directory = try ModelFileTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("plain.sqlite")
        try Connection(.file(url.path)).execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER)")
        #expect { try CompiledModelReader.model(fromModelCacheOf: url) } throws: { ($0 as? CompiledModelError)?.kind == .noModelCache }
    }
}

/// Archived forms older and newer than the model files Faultline was built
/// with: derived attributes (CoreDataPlus), compound indexes (objc.io's Moody)
/// and a default archived as the app's own class.
@Suite("Model cache fixtures: derived attributes, compound indexes, app-class defaults")
struct ArchivedFormFixtureTests {
    @Test("CoreDataPlus's archived NSDerivedAttributeDescription reads as the derivation pages.@count, and its Cover default is left out with a warning")
    func derivedAttribute() throws {
        let version = try CompiledModelReader.model(
            fromModelCacheOf: try CompiledModelFixtures.url("alemar11__CoreDataPlus/SampleModel2_V1.sqlite"))
        let book = try #require(version.model.entitiesByName["Book"])
        let derived = try #require(book.attributesByName["pagesCount"] as? DerivedAttributeDescription)
        #expect(derived.derivationExpression == "pages.@count")
        #expect(book.attributesByName["cover"]?.defaultAttributeValue == nil)
        #expect(version.warnings.contains { $0.path.hasSuffix("/cover/NSDefaultValue") && $0.message.contains("CoreDataPlus_Tests.Cover") })
        #expect(!version.warnings.contains { $0.message.contains("NSDerivedAttributeDescription") })
    }

    @Test("Moody's archived NSCompoundIndexes read as compound indexes, inherited ones once on the root's table")
    func compoundIndexes() throws {
        let version = try CompiledModelReader.model(fromModelCacheOf: try CompiledModelFixtures.url("objcio__core-data/Moody.moody"))
        #expect(version.model.entitiesByName["GeographicRegion"]?.compoundIndexes == [["markedForDeletionDate", "updatedAt"]])
        #expect(version.model.entitiesByName["Mood"]?.compoundIndexes == [["markedForRemoteDeletion", "markedForDeletionDate", "date"]])
        // Moody's colours are an app transformer; bytes stand in for it.
        ValueTransformerRegistry.registerMissing(in: version.model, standIn: FixtureDataTransformer())
        let schema = try StoreSchema(compiling: version.model.checked())
        #expect(schema.indexes.filter { $0.kind == .compoundIndex }.map(\.name).sorted() == [
            "ZGEOGRAPHICREGION_ZMARKEDFORDELETIONDATE_ZUPDATEDAT", "ZMOOD_ZMARKEDFORREMOTEDELETION_ZMARKEDFORDELETIONDATE_ZDATE",
        ])
    }
}
