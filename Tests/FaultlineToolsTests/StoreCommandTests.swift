import Faultline
import FixtureSupport
import FaultlineSQLite
import Foundation
import Testing
@testable import FaultlineTools

/// `faultline store inspect` on every fixture store: row counts equal
/// `SELECT count(*)`, --model reports match or mismatch, without --model the
/// store is matched against its own Z_MODELCACHE, bad input exits 2, and the
/// store files are never written.
@Suite("Store inspect")
struct StoreCommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = StoreCommand.run(arguments) { output += $0 }
        return (status, output)
    }

    private func count(_ sql: String, in path: String, _ values: [SQLValue] = []) throws -> Int {
        var configuration = Connection.Configuration()
        configuration.readOnly = true
        let connection = try Connection(.file(path), configuration: configuration)
        guard case .integer(let rows)? = try connection.scalar(sql, values) else {
            Issue.record("no count for \(sql)")
            return -1
        }
        return Int(rows)
    }

    /// The model files in a store's own folder (`.xcdatamodeld`, `.xcdatamodel`,
    /// `.momd`, `.mom`), by name: what a store without a model cache is matched to.
    private func modelFiles(beside store: URL) -> [String] {
        let folder = store.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { ["xcdatamodeld", "xcdatamodel", "momd", "mom"].contains(($0 as NSString).pathExtension) }
            .sorted().map { folder.appendingPathComponent($0).path }
    }

    @Test("Every fixture store: table and entity row counts equal SELECT count(*), and the store matches its model cache (or, without one, the model file beside it, or with none, its inferred model)")
    func rowCounts() throws {
        let root = try InspectFixtures.root()
        let stores = try InspectFixtures.stores()
        #expect(stores.count >= 40, "found only \(stores)")
        for name in CoreDataFixtureExpectations.unmatchedToday.keys {
            #expect(stores.contains(name), "\(name) is listed as unmatched but is not among the fixtures")
        }
        for name in stores {
            let store = root.appendingPathComponent(name).path
            let result = run(["inspect", store])
            #expect(result.status == 0, "\(name): \(result.output)")
            #expect(result.output.contains("sizes"), "\(name)")
            if let reason = CoreDataFixtureExpectations.unmatchedToday[name] {
                #expect(!result.output.contains("result: matches"),
                        "\(name) now matches its model cache: take it off `CoreDataFixtureExpectations.unmatchedToday` (was: \(reason))")
            } else if result.output.contains("the store has no Z_MODELCACHE") || result.output.contains("Z_MODELCACHE holds no model") {
                // Matched to the model file beside it, or, with none, to the model its schema implies.
                let models = modelFiles(beside: URL(fileURLWithPath: store))
                for model in models {
                    let matched = run(["inspect", store, "--model", model])
                    #expect(matched.output.contains("result: matches"), "\(name) against \(model): \(matched.output)")
                }
                if models.isEmpty {
                    #expect(result.output.contains("result: matches the inferred model"), "\(name): \(result.output)")
                }
            } else {
                #expect(result.output.contains("model cache (Z_MODELCACHE): "), "\(name): \(result.output)")
                #expect(result.output.contains("Z_MODELCACHE (current): matches"), "\(name): \(result.output)")
                #expect(result.output.contains("metadata (Z_METADATA):\n  Z_UUID "), "\(name)")
            }
            let lines = result.output.split(separator: "\n").map(String.init)
            var checked = 0
            for line in lines {
                let words = line.split(separator: " ").map(String.init)
                // "  ZTODOITEM     158 rows"
                if words.count == 3, words[2] == "rows", let rows = Int(words[1]) {
                    #expect(rows == (try count("SELECT count(*) FROM \"\(words[0])\"", in: store)), "\(name) \(line)")
                    checked += 1
                }
                // "  2 TodoItem  158 rows in ZTODOITEM, ..."
                if words.count >= 6, let number = Int(words[0]), let rows = Int(words[2]), words[3] == "rows", words[4] == "in" {
                    let table = words[5].trimmingCharacters(in: CharacterSet(charactersIn: ","))
                    let expected = try count("SELECT count(*) FROM \"\(table)\" WHERE Z_ENT = ?", in: store, [.integer(Int64(number))])
                    #expect(rows == expected, "\(name) \(line)")
                    checked += 1
                }
            }
            #expect(checked >= 3, "\(name): too few counts found in\n\(result.output)")
        }
    }

    @Test("EasyLife.sqlite has 158 TodoItem rows")
    func knownCount() throws {
        let result = run(["inspect", try InspectFixtures.path("larromba__EasyLife/EasyLifeTests/EasyLife.sqlite")])
        #expect(result.output.contains("2 TodoItem  158 rows in ZTODOITEM"))
    }

    @Test("--model: the EasyLife 1.3.0 store mismatches the 1.5.0 model")
    func mismatch() throws {
        let store = try InspectFixtures.path("larromba__EasyLife/EasyLifeTests/EasyLife 1.3.0.sqlite")
        let model = try InspectFixtures.path(InspectFixtures.easyLifeModel + "/EasyLife 1.5.0.xcdatamodel")
        let result = run(["inspect", store, "--model", model])
        #expect(result.status == 0)
        #expect(result.output.contains("EasyLife 1.5.0 (current): mismatch ("))
        #expect(result.output.contains("table Z_2BLOCKING (entity TodoItem.blockedBy, TodoItem.blocking) is in the model's schema but not in the store"))
        #expect(result.output.contains("result: the store matches no version of this model"))
    }

    @Test("--model: the Recipes store matches its model")
    func match() throws {
        let store = try InspectFixtures.path("alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.sqlite")
        let model = try InspectFixtures.path("alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.xcdatamodeld")
        let result = run(["inspect", store, "--model", model])
        #expect(result.status == 0)
        #expect(result.output.contains("Recipes (current): matches"), "\(result.output)")
        #expect(result.output.contains("result: matches Recipes"))
    }

    @Test("Without --model: the entities of the store's model cache are named and the store matches them")
    func modelCache() throws {
        let store = try InspectFixtures.path("linjk__JimGroceryDude/JimGroceryDude/Model/DataModel/DefaultData.sqlite")
        let result = run(["inspect", store])
        #expect(result.status == 0)
        #expect(result.output.contains("model cache (Z_MODELCACHE): 5 entities: Item, Location, LocationAtHome, LocationAtShop, Unit\n"),
                "\(result.output)")
        #expect(result.output.contains("result: matches Z_MODELCACHE"))
    }

    @Test("A matched store's transformables in Core Data's keyed archives are counted; Accounts3's all decode")
    func transformablesDecodeInFixture() throws {
        let store = try InspectFixtures.path("log2timeline__plaso/ios/Accounts3.sqlite")
        let result = run(["inspect", store])
        #expect(result.output.contains("      AccountProperty.value (ZACCOUNTPROPERTY.ZVALUE): 145 of 145 values decode\n"), "\(result.output)")
        #expect(!result.output.contains("read as their bytes"))
    }

    @Test("An archive of a class Foundation's values do not cover is a warning naming the class; other bytes one saying so")
    func foreignArchiveClassWarns() throws {
        let directory = try CoreDataFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = ManagedObjectModel {
            Entity("Setting") {
                Attribute("name", .string)
                Attribute("value", .transformable)
            }
        }
        let modelFile = directory.appendingPathComponent("contents")
        try ModelFileWriter().contentsText(of: model).write(to: modelFile, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("Settings.sqlite")
        let context = try PersistentContainer(model: model, location: .file(store)).newBackgroundContext()
        try context.performAndWait {
            for name in ["a", "b", "c", "d"] {
                let setting = try context.insertNewObject(forEntityName: "Setting")
                try setting.setValue(name, forKey: "name")
                try setting.setValue(["n": 1] as [String: Any], forKey: "value")
            }
            try context.save()
        }
        // An app's class, as Darwin archives it: the NSNull record renamed (same length).
        let foreign = Data(try FoundationArchive.encode(NSNull()).map { $0 })
        let renamed = try #require(String(data: foreign, encoding: .isoLatin1)?.replacingOccurrences(of: "NSNull", with: "MyNote")
            .data(using: .isoLatin1))
        let raw = try Connection(.file(store.path))
        try raw.execute("UPDATE ZSETTING SET ZVALUE = ? WHERE ZNAME IN ('b', 'c')", [.blob(renamed)])
        try raw.execute("UPDATE ZSETTING SET ZVALUE = ? WHERE ZNAME = 'd'", [.blob(Data([1, 2, 3]))])
        let result = run(["inspect", store.path, "--model", modelFile.path])
        #expect(result.output.contains("      Setting.value (ZSETTING.ZVALUE): 1 of 4 values decode\n"), "\(result.output)")
        #expect(result.output.contains("      warning: 2 values are archived MyNote objects, read as their bytes"), "\(result.output)")
        #expect(result.output.contains("      warning: 1 value is not a keyed archive, read as stored"), "\(result.output)")
    }

    @Test("migrate --dry-run prints the source, the changes, the preflight and the trial, and writes nothing; migrate then migrates")
    func migrateDryRunThenMigrate() throws {
        let (directory, copy) = try InspectFixtures.writableCopy("jeffreybergier__CoreDataMigrationTests/Example_v1.2.0.sqlite")
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try InspectFixtures.path("jeffreybergier__CoreDataMigrationTests/Model.xcdatamodeld")
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let dry = run(["migrate", copy, "--to", model, "--dry-run"])
        #expect(dry.status == 0, "\(dry.output)")
        #expect(dry.output.contains("source: v1.2.0 (the version the store matches)\n"), "\(dry.output)")
        #expect(dry.output.contains("  ~ BasicEntity.v1_2_0_name renamed to v2_0_0_name\n"))
        #expect(dry.output.contains("preflight over the existing rows:\n  no existing row stands in the way\n"))
        #expect(dry.output.contains("trial on a copy: the migration succeeds\n"))
        #expect(dry.output.contains("result: can be migrated; nothing was written (dry run)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)

        let real = run(["migrate", copy, "--to", model])
        #expect(real.status == 0 && real.output.contains("result: migrated from v1.2.0 to v2.0.0"), "\(real.output)")
        #expect(try count("SELECT count(*) FROM ZBASICENTITY WHERE ZV2_0_0_NAME IS NOT NULL", in: copy) == 1)
        let again = run(["migrate", copy, "--to", model])
        #expect(again.status == 0 && again.output.contains("result: the store already matches v2.0.0"), "\(again.output)")
    }

    @Test("migrate to a model carrying none of the store's entities (a mistyped --to) is refused unchanged without --allow-data-loss")
    func migrateRefusesWipe() throws {
        let (directory, copy) = try InspectFixtures.writableCopy("wibosco__CoreDataMigration-Example/CoreDataMigration_Example_1.sqlite")
        defer { try? FileManager.default.removeItem(at: directory) }
        let unrelated = try InspectFixtures.path("jeffreybergier__CoreDataMigrationTests/Model.xcdatamodeld")
        let posts = try count("SELECT count(*) FROM ZPOST", in: copy)
        #expect(posts > 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let dry = run(["migrate", copy, "--to", unrelated, "--dry-run"])
        #expect(dry.status == 1, "\(dry.output)")
        #expect(dry.output.contains("data loss: v2.0.0 carries none of the store's entities, so every row would be deleted; "
                                    + "pass --allow-data-loss if that is meant\n"), "\(dry.output)")
        #expect(dry.output.contains("result: would be refused; nothing was written (dry run)"), "\(dry.output)")
        let refused = run(["migrate", copy, "--to", unrelated])
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.contains("result: refused: the migration would delete every row; nothing was written"), "\(refused.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        #expect(run(["migrate", copy, "--to", unrelated, "--allow-data-loss", "--allow-data-loss"]).status == 2)

        let allowed = run(["migrate", copy, "--to", unrelated, "--allow-data-loss"])
        #expect(allowed.status == 0, "\(allowed.output)")
        #expect(!allowed.output.contains("data loss:"), "\(allowed.output)")
        #expect(try count("SELECT count(*) FROM ZBASICENTITY", in: copy) == 0)
    }

    @Test("migrate: a store matching no version (and without a model cache) exits 1 unchanged; bad usage exits 2")
    func migrateRefusedAndBadUsage() throws {
        let (directory, copy) = try InspectFixtures.writableCopy("kodecocodes__cdt-materials/SurfJournalModel.sqlite")
        defer { try? FileManager.default.removeItem(at: directory) }
        let unrelated = try InspectFixtures.path("jeffreybergier__CoreDataMigrationTests/Model.xcdatamodeld")
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let refused = run(["migrate", copy, "--to", unrelated])
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.contains("source: none"), "\(refused.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        // An empty file, and a SQLite file that is not Core Data's, are named as such, unchanged.
        let empty = directory.appendingPathComponent("empty.sqlite").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let plain = directory.appendingPathComponent("plain.sqlite").path
        try Connection(.file(plain)).execute("CREATE TABLE t (x)")
        let plainBytes = try Data(contentsOf: URL(fileURLWithPath: plain))
        for store in [empty, plain] {
            let result = run(["migrate", store, "--to", unrelated])
            #expect(result.status == 2, "\(result.output)")
            #expect(result.output == "error: '\(store)' is not a Core Data store: it has no Z_PRIMARYKEY table\n", "\(result.output)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: plain)) == plainBytes)
        for arguments in [["migrate"], ["migrate", copy], ["migrate", copy, "--to"], ["migrate", "--to", unrelated],
                          ["migrate", copy, "--to", unrelated, "--dry-run", "--dry-run"], ["migrate", copy, "--to", "/no/such/model"],
                          ["migrate", "/no/such/store", "--to", unrelated], ["migrate", copy, "other", "--to", unrelated]] {
            let result = run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.output)")
            #expect(result.output.hasPrefix("error: "), "\(arguments): \(result.output)")
        }
    }

    @Test("Without --model: a store without Z_MODELCACHE says it has none and is matched to the model its schema implies")
    func noModelCache() throws {
        let (directory, copy) = try InspectFixtures.writableCopy("alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.sqlite")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Connection(.file(copy)).execute("DROP TABLE Z_MODELCACHE")
        let result = run(["inspect", copy])
        #expect(result.status == 0)
        #expect(result.output.contains("model: no --model given, and the store has no Z_MODELCACHE"), "\(result.output)")
        #expect(result.output.contains("model inferred from the schema (for reading only): 4 entities: Image, Ingredient, Recipe, RecipeType"),
                "\(result.output)")
        #expect(result.output.contains("result: matches the inferred model"), "\(result.output)")
        #expect(result.output.contains("4 Recipe"))
    }

    @Test("Without --model: an unreadable model cache is reported, not fatal")
    func corruptModelCache() throws {
        let (directory, copy) = try InspectFixtures.writableCopy("alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.sqlite")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Connection(.file(copy)).execute("UPDATE Z_MODELCACHE SET Z_CONTENT = ?", [.blob(Data([1, 2, 3]))])
        let result = run(["inspect", copy])
        #expect(result.status == 0)
        #expect(result.output.contains("model cache (Z_MODELCACHE): unreadable: the model cache is not a valid deflate stream"), "\(result.output)")
    }

    @Test("The store files are not modified")
    func readOnly() throws {
        let store = try InspectFixtures.path("larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite")
        let model = try InspectFixtures.path(InspectFixtures.easyLifeModel)
        let files = [store, store + "-wal", store + "-shm"]
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        _ = run(["inspect", store, "--model", model])
        let after = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(before == after)
    }

    @Test("Bad input exits 2")
    func badInput() throws {
        let notSQLite = try InspectFixtures.path("larromba__EasyLife/SOURCE.md")
        let store = try InspectFixtures.path("larromba__EasyLife/EasyLifeTests/EasyLife.sqlite")
        let directory = try InspectFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A SQLite database that is not a Core Data store.
        let plain = directory.appendingPathComponent("plain.sqlite").path
        let connection = try Connection(.file(plain))
        try connection.execute("CREATE TABLE t (x)")
        let cases: [[String]] = [
            [], ["inspect"], ["dump", store], ["inspect", store, "--model"], ["inspect", store, "--bogus"],
            ["inspect", store, store], ["inspect", "/no/such/store.sqlite"], ["inspect", notSQLite],
            ["inspect", plain], ["inspect", store, "--model", notSQLite], ["inspect", store, "--model", "/no/such/model"],
        ]
        for arguments in cases {
            let result = run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.output)")
            #expect(result.output.hasPrefix("error: "), "\(arguments)")
        }
    }
}
