import Foundation
import FixtureSupport
import Testing
@testable import FaultlineTools

/// `faultline model inspect` and `model diff` on the EasyLife bundle and
/// on small written models; bad input exits 2.
@Suite("Model inspect and diff")
struct ModelCommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = ModelCommand.run(arguments) { output += $0 }
        return (status, output)
    }

    @Test("Every model file under the fixtures, found by walking (Xcode 3 elements, XML contents, .momd, .mom), loads with inspect: warnings allowed, refusals not")
    func everyFixtureModelLoads() throws {
        let files = try CoreDataFixtures.modelFiles()
        #expect(files.count >= 16, "found only \(files)")
        var versions = 0
        for file in files {
            let result = run(["inspect", try CoreDataFixtures.path(file)])
            #expect(result.status == 0, "\(file): \(result.output)")
            let listed = result.output.components(separatedBy: "\n== version ").count - 1
            #expect(listed > 0, "\(file): no version printed")
            #expect(result.output.contains("schema: "), "\(file): no schema printed")
            versions += listed
            print("model \(file): \(listed) version(s), \(result.output.contains("warnings: none") ? "no warnings" : "warnings")")
        }
        print("models: \(files.count) files, \(versions) versions, all loaded")
    }

    @Test("inspect lists the 3 EasyLife versions and marks 1.5.0 current")
    func inspectBundle() throws {
        let result = run(["inspect", try InspectFixtures.path(InspectFixtures.easyLifeModel)])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("model EasyLife: 3 versions\n  EasyLife\n  EasyLife 1.3.0\n  EasyLife 1.5.0 (current)\n"))
        #expect(result.output.contains("== version EasyLife 1.5.0 (current)\n"))
        #expect(result.output.contains("== version EasyLife 1.3.0\n"))
        #expect(result.output.contains("relationship blocking -> TodoItem to-many, optional, inverse blockedBy"))
        #expect(result.output.contains("CREATE TABLE Z_2BLOCKING"))
        #expect(result.output.contains("CREATE INDEX ZTODOITEM_ZPROJECT_INDEX ON ZTODOITEM (ZPROJECT);"))
        #expect(result.output.contains("warnings: none"))
    }

    @Test("inspect reads a compiled .momd and a .mom: CartKit's version, current, with its entities and schema")
    func inspectCompiled() throws {
        let momd = try InspectFixtures.path("Karim-ezzedine__CartKit/Sources/CartKitStorageCoreData/Resources/CartStorage.momd")
        for path in [momd, momd + "/CartStorage.mom"] {
            let result = run(["inspect", path])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.hasPrefix("model CartStorage: 1 version\n  CartStorage (current)\n"), "\(result.output)")
            #expect(result.output.contains("entity CDCart"), "\(result.output)")
            #expect(result.output.contains("CREATE TABLE ZCDCART"), "\(result.output)")
        }
        let source = try InspectFixtures.path("Karim-ezzedine__CartKit/Sources/CartKitStorageCoreData/Resources/CartStorage.xcdatamodeld")
        let diff = run(["diff", source, momd])
        #expect(diff.status == 0, "\(diff.output)")
        #expect(diff.output.contains("no changes"), "\(diff.output)")
    }

    @Test("diff 1.3.0 → 1.5.0 lists the new relationships and tables; lightweight covers it")
    func diffVersions() throws {
        let bundle = try InspectFixtures.path(InspectFixtures.easyLifeModel)
        let result = run(["diff", bundle + "/EasyLife 1.3.0.xcdatamodel", bundle])
        #expect(result.status == 0)
        #expect(result.output.contains("diff EasyLife 1.3.0 → EasyLife 1.5.0"))
        #expect(result.output.contains("+ TodoItem.blockedBy -> TodoItem"))
        #expect(result.output.contains("+ TodoItem.blocking -> TodoItem"))
        #expect(result.output.contains("+ table Z_2BLOCKING"))
        #expect(result.output.contains("lightweight migration: yes"))
    }

    @Test("diff EasyLife → 1.3.0 adds the Project entity")
    func diffAddsEntity() throws {
        let bundle = try InspectFixtures.path(InspectFixtures.easyLifeModel)
        let result = run(["diff", bundle + "/EasyLife.xcdatamodel", bundle + "/EasyLife 1.3.0.xcdatamodel"])
        #expect(result.status == 0)
        #expect(result.output.contains("+ entity Project"))
        #expect(result.output.contains("+ TodoItem.project -> Project"))
    }

    @Test("A narrowing type change is listed and refused by lightweight inference")
    func diffRefused() throws {
        let directory = try InspectFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = try InspectFixtures.contents(valueType: "String", in: directory)
        let new = try InspectFixtures.contents(valueType: "Integer 64", in: directory)
        let result = run(["diff", old, new])
        #expect(result.status == 0)
        #expect(result.output.contains("~ Item.amount: type string → integer64"))
        #expect(result.output.contains("lightweight migration: no: Item.amount: type changed"))
        let widening = run(["diff", try InspectFixtures.contents(valueType: "Integer 16", in: directory), new])
        #expect(widening.output.contains("lightweight migration: yes"))
    }

    @Test("The same model twice: no changes")
    func diffSame() throws {
        let bundle = try InspectFixtures.path(InspectFixtures.easyLifeModel)
        let result = run(["diff", bundle, bundle])
        #expect(result.status == 0)
        #expect(result.output.contains("no changes"))
    }

    @Test("Bad input exits 2", arguments: [
        [], ["inspect"], ["inspect", "a", "b"], ["diff", "a"], ["frobnicate"],
        ["inspect", "/no/such/model.xcdatamodeld"], ["diff", "/no/such/a", "/no/such/b"],
    ])
    func badUsage(_ arguments: [String]) {
        let result = run(arguments)
        #expect(result.status == 2)
        #expect(result.output.hasPrefix("error: "))
    }

    @Test("A foreign or corrupt file and a malformed or truncated model exit 2; a Core Data store reads as its cached model")
    func malformed() throws {
        let directory = try InspectFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let foreign = try InspectFixtures.path("larromba__EasyLife/EasyLife/EasyLife.xcdatamodeld/EasyLife.xcdatamodel/contents")
        let text = try String(contentsOfFile: foreign, encoding: .utf8)
        let truncated = directory.appendingPathComponent("truncated")
        try Data(text.utf8.prefix(text.utf8.count / 2)).write(to: truncated)
        let bogus = directory.appendingPathComponent("bogus")
        try Data(text.replacingOccurrences(of: "attributeType=\"Date\"", with: "attributeType=\"Bogus\"").utf8).write(to: bogus)
        let corrupt = directory.appendingPathComponent("corrupt.sqlite")
        try Data("SQLite format 3\0 and then no database".utf8).write(to: corrupt)
        let binary = directory.appendingPathComponent("binary")
        try Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) }).write(to: binary)
        for path in [truncated.path, bogus.path, corrupt.path, binary.path] {
            #expect(run(["inspect", path]).status == 2, "inspect \(path)")
            #expect(run(["diff", foreign, path]).status == 2, "diff \(path)")
        }
        // A Core Data store is a model too: the one it cached in Z_MODELCACHE.
        let store = try InspectFixtures.path("larromba__EasyLife/EasyLifeTests/EasyLife.sqlite")
        let inspected = run(["inspect", store])
        #expect(inspected.status == 0 && inspected.output.contains("== version Z_MODELCACHE"), "\(inspected.output)")
    }
}
