// The compiled .momd's VersionInfo.plist: Core Data's own entity hashes, kept
// with each version so a store Core Data wrote can be matched exactly.

import Foundation
import Testing
import Faultline

@Suite("Model files: Core Data's version hashes come from the compiled .momd")
struct CompiledModelInfoTests {
    private func hashes(_ entities: [String]) -> [String: Data] {
        Dictionary(uniqueKeysWithValues: entities.enumerated().map { ($1, Data(repeating: UInt8($0 + 1), count: 32)) })
    }

    private func writeMomd(_ plist: [String: Any], at url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        try data.write(to: url.appendingPathComponent("VersionInfo.plist"))
    }

    @Test("CartKit's binary VersionInfo.plist gives 32-byte hashes per entity and the current version")
    func cartKit() throws {
        let bundle = try ModelFileTestSupport.fixture(.cartKit)
        let momd = bundle.deletingLastPathComponent().appendingPathComponent("CartStorage.momd")
        let info = try CompiledModelInfo.read(momd: momd)
        #expect(info.currentVersionName == "CartStorage")
        #expect(info.entityVersionHashes["CartStorage"]?.count == 3)
        #expect(info.versionChecksums["CartStorage"] == "RV83lyqrxa85p8T4dUf5Vhtv6Ypawk/doB6mVJlOAeY=")
    }

    @Test("a compiled model beside a copied bundle is discovered; a stale one is reported, not hidden")
    func discoveredAndStale() throws {
        let folder = try ModelFileTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Recipes.xcdatamodeld")
        try FileManager.default.copyItem(at: try ModelFileTestSupport.fixture(.recipes), to: bundle)
        try writeMomd(["NSManagedObjectModel_VersionHashes": ["Recipes": hashes(["Image", "Recipe", "Gone"])],
                       "NSManagedObjectModel_CurrentVersionName": "Recipes"],
                      at: folder.appendingPathComponent("Recipes.momd"))
        let read = try ModelFileReader().read(at: bundle)
        #expect(read.current?.coreDataEntityVersionHashes?["Recipe"] == Data(repeating: 2, count: 32))
        #expect(read.bundleWarnings.count == 1)
        #expect(read.bundleWarnings.first?.message.contains("only in source: [Ingredient, RecipeType]") == true)
        #expect(read.bundleWarnings.first?.message.contains("only compiled: [Gone]") == true)

        var quiet = ModelFileReader()
        quiet.discoversCompiledModel = false
        #expect(try quiet.read(at: bundle).current?.coreDataEntityVersionHashes == nil)
    }

    @Test("an unreadable compiled model is an error when given, a warning when discovered")
    func broken() throws {
        let folder = try ModelFileTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Recipes.xcdatamodeld")
        try FileManager.default.copyItem(at: try ModelFileTestSupport.fixture(.recipes), to: bundle)
        let momd = folder.appendingPathComponent("Recipes.momd")
        try writeMomd(["NSManagedObjectModel_VersionHashes": ["Recipes": ["Recipe": Data([1, 2, 3])]]], at: momd)
        #expect(throws: ModelFileError.self) { try ModelFileReader().read(at: bundle, compiledModel: momd) }
        let read = try ModelFileReader().read(at: bundle)
        #expect(read.bundleWarnings.first?.message.contains("not 32 bytes") == true)
        #expect(read.current?.coreDataEntityVersionHashes == nil)

        for garbage in [Data(), Data("bplist00garbage".utf8), Data("<plist><string>x</string></plist>".utf8)] {
            #expect(throws: ModelFileError.self) { try CompiledModelInfo.parse(garbage, file: "VersionInfo.plist") }
        }
    }

    @Test("hashes attach by version name; versions the source lacks are reported")
    func versionMatching() throws {
        let folder = try ModelFileTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Model.xcdatamodeld")
        try FileManager.default.copyItem(at: try ModelFileTestSupport.fixture(.groceryDude), to: bundle)
        let momd = folder.appendingPathComponent("Elsewhere.momd")
        try writeMomd(["NSManagedObjectModel_VersionHashes": [
            "Model 6": hashes(["Item", "Location", "LocationAtHome", "LocationAtShop", "Unit"]),
            "Model 7": hashes(["Item"]),
        ], "NSManagedObjectModel_CurrentVersionName": "Model 6"], at: momd)
        let read = try ModelFileReader().read(at: bundle, compiledModel: momd)
        #expect(read.current?.coreDataEntityVersionHashes?.count == 5)
        #expect(read.version(named: "Model 2")?.coreDataEntityVersionHashes == nil)
        let messages = read.bundleWarnings.map(\.message)
        #expect(messages.contains { $0.contains("version 'Model 7' that the source does not") })
        #expect(messages.filter { $0.contains("has no hashes for version") }.count == 5)
    }
}
