@testable import BenchmarkData
import Faultline
import FixtureSupport
import FaultlineSQLite
import Foundation
import Testing

/// The Faulting profiler on a user's model: key paths resolved against the
/// model's schema, the raw reference's statements for every kind of
/// relationship storage, and every strategy reading the same objects from a
/// Core Data store (a copy) or from synthetic data of the model's shape.
@Suite("Profiling a user's model", .serialized)
struct ModelProfileTests {
    static let recipes = "alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes"
    static let easyLife = "larromba__EasyLife"

    /// The shared Core Data fixtures (`FixtureSupport`).
    static func fixture(_ path: String) throws -> String { try CoreDataFixtures.path(path) }

    static func schema(_ modelPath: String, version: String? = nil) throws -> (ManagedObjectModel, StoreSchema) {
        let (model, _) = try ModelProfileStore.readModel(try fixture(modelPath), version: version)
        return (model, try StoreSchema(compiling: model.checked()))
    }

    private func pattern(_ keyPaths: [String], touch: Double = 1) throws -> AccessPattern {
        try AccessPattern(fraction: touch, order: .random, keyPaths: keyPaths, knownKeyPaths: nil)
    }

    /// Runs every Faultline strategy on a fresh context with a cold row cache:
    /// statements executed and the checksum, by strategy.
    private func run(_ workload: ModelWorkload, on store: ModelProfileStore) throws -> [FaultStrategy: (statements: Int, checksum: Int)] {
        var results: [FaultStrategy: (Int, Int)] = [:]
        for strategy in FaultStrategy.all where strategy != .raw && strategy != .warmCache {
            store.container.coordinator.rowCache.removeAll()
            let context = store.container.newBackgroundContext()
            let before = store.container.coordinator.sqlCounters
            let checksum = try workload.run(strategy, in: context)
            results[strategy] = ((store.container.coordinator.sqlCounters - before).statementsExecuted, checksum)
        }
        return results
    }

    @Test("The raw reference's statement for a to-many, a to-one and a many-to-many, as text")
    func rawStatements() throws {
        let (_, schema) = try Self.schema(Self.easyLife + "/EasyLife/EasyLife.xcdatamodeld", version: "EasyLife 1.5.0")
        let items = try KeyPathTree(entity: "TodoItem", keyPaths: ["blockedBy", "project.todoItem"], schema: schema)
        let edges = items.root.edges
        #expect(edges.map(\.relationship) == ["blockedBy", "project"])
        let columns = "Z_PK, " + items.root.columns.joined(separator: ", ")
        let joinTable = try #require(schema.tables.first { $0.name.hasPrefix("Z_") && $0.name.hasSuffix("BLOCKING") }?.name)
        #expect(RawModelReader.statement(for: edges[0]).hasPrefix("SELECT \(columns) FROM ZTODOITEM WHERE Z_PK IN (SELECT "))
        #expect(RawModelReader.statement(for: edges[0]).contains(" FROM \(joinTable) WHERE "))
        #expect(RawModelReader.statement(for: edges[0]).hasSuffix(" IN (SELECT value FROM json_each(?)))"))
        #expect(edges[1].destination.columns == ["ZNAME", "ZPRIORITY"])
        #expect(RawModelReader.statement(for: edges[1])
                == "SELECT Z_PK, ZNAME, ZPRIORITY FROM ZPROJECT WHERE Z_PK IN (SELECT ZPROJECT FROM ZTODOITEM WHERE Z_PK IN (SELECT value FROM json_each(?)))")
        #expect(RawModelReader.statement(for: edges[1].destination.edges[0])
                == "SELECT \(columns) FROM ZTODOITEM WHERE ZPROJECT IN (SELECT value FROM json_each(?))")
    }

    @Test("Unknown entities and relationships are errors naming what the model has")
    func unknownNames() throws {
        let (_, schema) = try Self.schema(Self.recipes + "/Recipes.xcdatamodeld")
        #expect(throws: ObjectGraphInputError.self) { try KeyPathTree(entity: "Cake", keyPaths: ["layers"], schema: schema) }
        do {
            _ = try KeyPathTree(entity: "Recipe", keyPaths: ["ingredients.recipe.chef"], schema: schema)
            Issue.record("an unknown relationship was accepted")
        } catch {
            #expect(String(describing: error) == "Recipe.ingredients.recipe: Recipe has no relationship 'chef'; its relationships: image, ingredients, type")
        }
    }

    @Test("On a copy of the Recipes store every strategy reads the same objects; prefetch takes one statement per level, as raw")
    func coreDataStore() throws {
        let (model, schema) = try Self.schema(Self.recipes + "/Recipes.xcdatamodeld")
        let storePath = try Self.fixture(Self.recipes + "/Recipes.sqlite")
        let original = try Data(contentsOf: URL(fileURLWithPath: storePath))
        let store = try ModelProfileStore(model: model, modelName: "Recipes", storePath: storePath)
        defer { store.remove() }
        let tree = try KeyPathTree(entity: "Recipe", keyPaths: ["ingredients", "type"], schema: schema)
        let keys = try store.keys(of: tree.root)
        let workload = try ModelWorkload(tree: tree, pattern: try pattern(["ingredients", "type"]), objectCount: keys.count)
        let results = try run(workload, on: store)
        #expect(Set(results.values.map(\.checksum)).count == 1)
        #expect(results[.prefetch]?.statements == 3)
        // Lazy: the fetch, then per recipe its ingredients and its type's fault.
        let recipes = keys.count
        #expect(results[.lazy]?.statements == 1 + 2 * recipes)
        let reader = try RawModelReader(storePath: store.url.path, workload: workload, keys: keys)
        _ = try reader.run()
        #expect(reader.lastRun.statementsExecuted == 3)
        let sqlite = try Connection(.file(store.url.path))
        let ingredients = try sqlite.scalar("SELECT count(*) FROM ZINGREDIENT WHERE ZRECIPE IS NOT NULL")
        let types = try sqlite.scalar("SELECT count(DISTINCT ZTYPE) FROM ZRECIPE")
        guard case .integer(let ingredientCount)? = ingredients, case .integer(let typeCount)? = types else {
            Issue.record("counts unreadable")
            return
        }
        #expect(reader.lastRun.rowsReturned == recipes + Int(ingredientCount) + Int(typeCount))
        #expect(try Data(contentsOf: URL(fileURLWithPath: storePath)) == original)
    }

    @Test("Without a model file, the model Core Data cached in the store opens a copy of it")
    func cachedModel() throws {
        let storePath = try Self.fixture(Self.recipes + "/Recipes.sqlite")
        let (model, name) = try ModelProfileStore.readCachedModel(ofStore: storePath)
        #expect(name == "Z_MODELCACHE of Recipes.sqlite")
        let store = try ModelProfileStore(model: model, modelName: name, storePath: storePath)
        defer { store.remove() }
        let tree = try KeyPathTree(entity: "Recipe", keyPaths: ["ingredients"], schema: store.container.coordinator.schema)
        #expect(try store.keys(of: tree.root).count == 3)
    }

    @Test("A compiled .momd is a model file too: its current version opens and compiles")
    func compiledModel() throws {
        let momd = try Self.fixture("Karim-ezzedine__CartKit/Sources/CartKitStorageCoreData/Resources/CartStorage.momd")
        let (model, name) = try ModelProfileStore.readModel(momd, version: nil)
        #expect(name == "CartStorage")
        let schema = try StoreSchema(compiling: model.checked())
        let tree = try KeyPathTree(entity: "CDCart", keyPaths: ["items"], schema: schema)
        #expect(tree.root.edges.map(\.relationship) == ["items"])
    }

    @Test("Synthetic data of the model's shape: 4 types × 3 recipes × 3 ingredients, read alike by every strategy")
    func syntheticData() throws {
        let (model, schema) = try Self.schema(Self.recipes + "/Recipes.xcdatamodeld")
        let tree = try KeyPathTree(entity: "RecipeType", keyPaths: ["recipes.ingredients"], schema: schema)
        let store = try ModelProfileStore(
            model: model, modelName: "Recipes", synthetic: try SyntheticModelData(tree: tree, objects: 4, fanOut: 3))
        defer { store.remove() }
        let sqlite = try Connection(.file(store.url.path))
        #expect(try sqlite.scalar("SELECT count(*) FROM ZRECIPETYPE") == .integer(4))
        #expect(try sqlite.scalar("SELECT count(*) FROM ZRECIPE WHERE ZTYPE IS NOT NULL") == .integer(12))
        #expect(try sqlite.scalar("SELECT count(*) FROM ZINGREDIENT WHERE ZRECIPE IS NOT NULL") == .integer(36))
        #expect(try sqlite.scalar("SELECT count(*) FROM ZRECIPE WHERE ZNAME IS NULL") == .integer(0))
        let keys = try store.keys(of: tree.root)
        let workload = try ModelWorkload(tree: tree, pattern: try pattern(["recipes.ingredients"]), objectCount: keys.count)
        let results = try run(workload, on: store)
        #expect(Set(results.values.map(\.checksum)).count == 1)
        #expect(results[.prefetch]?.statements == 3)
        #expect(results[.lazy]?.statements == 1 + 4 + 12)
        let reader = try RawModelReader(storePath: store.url.path, workload: workload, keys: keys)
        _ = try reader.run()
        #expect(reader.lastRun.statementsExecuted == 3)
        #expect(reader.lastRun.rowsReturned == 4 + 12 + 36)
        #expect(throws: ObjectGraphInputError.self) { try SyntheticModelData(tree: tree, objects: 0, fanOut: 3) }
    }

    @Test("--model flags: what is accepted and what is refused", arguments: [
        (["--model", "m", "--keypaths", "a"], "a model profile needs --entity"),
        (["--model", "m", "--entity", "E"], "a model profile needs --keypaths"),
        (["--store", "s.sqlite"], "a model profile needs --entity"),
        (["--store", "s", "--entity", "E", "--keypaths", "a", "--version", "v"], "--version picks a version of --model"),
        (["--objects", "5"], "--objects needs --model or --store"),
        (["--model", "m", "--entity", "E", "--keypaths", "a", "--store", "s", "--objects", "5"], "--objects and --fanout"),
        (["--model", "m", "--entity", "E", "--keypaths", "a", "--graph", "10x2"], "--graph profiles the generated graph"),
        (["--model", "m", "--entity", "E", "--keypaths", "a", "--fanout", "0"], "--fanout needs a positive integer"),
    ])
    func arguments(_ arguments: [String], message: String) {
        do {
            _ = try ProfilerArguments(parsing: arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            #expect(String(describing: error).contains(message), "\(error)")
        }
    }

    @Test("--model with a store takes the profile off the generated graph and keeps the harness's flags")
    func parsesModelProfile() throws {
        let parsed = try ProfilerArguments(parsing: [
            "--model", "R.xcdatamodeld", "--store", "R.sqlite", "--entity", "Recipe", "--keypaths", "ingredients,type",
            "--touch", "0.5", "--iterations", "3",
        ])
        #expect(parsed.profiles.isEmpty)
        #expect(parsed.remaining == ["--iterations", "3"])
        let request = try #require(parsed.modelProfile)
        #expect(request.storePath == "R.sqlite" && request.entity == "Recipe")
        #expect(request.pattern.keyPaths == ["ingredients", "type"] && request.pattern.fraction == 0.5)
        let synthetic = try #require(try ProfilerArguments(parsing: [
            "--model", "R", "--entity", "Recipe", "--keypaths", "ingredients", "--objects", "50", "--fanout", "4",
        ]).modelProfile)
        #expect(synthetic.storePath == nil && synthetic.objects == 50 && synthetic.fanOut == 4)
    }
}
