import Faultline
import FixtureSupport
import Foundation
import Testing
@testable import FaultlineTools

/// The code `model generate` writes for every model file under the fixtures,
/// compiled into a program (`RoundTripHarness`) against the Faultline this
/// test bundle was built from and run: its classes register with `validate:
/// true`, and one object of every concrete entity, every stored attribute set
/// through its typed key and every relationship linked, saves and fetches back
/// with every value equal. Generating twice gives the same text.
@Suite("Generated classes of every fixture model compile, register, save and fetch back")
struct GeneratedRoundTripTests {
    /// The build folder holding `Modules/Faultline.swiftmodule` and the targets' objects.
    static func buildFolder() -> URL? {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return [bundle, bundle.deletingLastPathComponent()].first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("Modules/Faultline.swiftmodule").path)
        }
    }

    /// Faultline and the targets under it; the test bundle links the same objects.
    static let linkedTargets = [
        "Faultline", "FaultlineSQLite", "FaultlineSupport", "FaultlineModel", "FaultlineModelFiles", "FaultlinePredicate",
        "FaultlineSchema", "CSQLiteIO",
    ]

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test("Every model file under the fixtures")
    func everyFixtureModel() throws {
        let root = try CoreDataFixtures.root()
        let build = try #require(Self.buildFolder(), "no Faultline.swiftmodule beside the test bundle \(CommandLine.arguments[0])")
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        var flags = ["-I", build.appendingPathComponent("Modules").path]
        for target in ["CSQLite", "CZlib", "CSQLiteIO/include"] { flags += ["-I", sources.appendingPathComponent(target).path] }
        for target in Self.linkedTargets {
            let folder = build.appendingPathComponent("\(target).build")
            let objects = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".o") }.sorted()
            try #require(!objects.isEmpty, "no objects in \(folder.path)")
            flags += objects.map { folder.appendingPathComponent($0).path }
        }
        flags += ["-lsqlite3", "-lz"]
        var entities = 0, properties = 0, skipped = 0, models = 0
        for relative in try CoreDataFixtures.modelFiles() {
            let path = root.appendingPathComponent(relative).path
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-roundtrip-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let version = try ModelGenerateCommand.version(of: path, named: nil).version
            let model = try InspectModels.checked(version)
            var files = try ModelGenerateCommand.generate(path: path, version: nil)
            #expect(try ModelGenerateCommand.generate(path: path, version: nil).map(\.contents) == files.map(\.contents), "\(relative): not stable")
            files.append(("main.swift", RoundTripHarness(model: model).source(modelPath: path, version: version.name)))
            for file in files { try Data(file.contents.utf8).write(to: directory.appendingPathComponent(file.name)) }
            let executable = directory.appendingPathComponent("roundtrip").path
            let compiled = try Self.run(
                "/usr/bin/env", ["swiftc", "-o", executable] + files.map { directory.appendingPathComponent($0.name).path } + flags)
            try #require(compiled.status == 0, "\(relative): \(compiled.output)")
            let result = try Self.run(executable, [])
            let concrete = model.entities.filter { !$0.isAbstract }.count
            let lines = result.output.split(separator: "\n")
            #expect(result.status == 0, "\(relative): \(result.output)")
            #expect(lines.filter { $0.hasPrefix("round trip ") }.count == concrete, "\(relative): \(result.output)")
            for line in lines where line.hasPrefix("skipped ") { print("\(relative): \(line)") }
            entities += concrete
            properties += lines.compactMap { line in
                line.hasPrefix("round trip ") ? line.split(separator: " ").dropLast().last.flatMap { Int($0) } : nil
            }.reduce(0, +)
            skipped += lines.filter { $0.hasPrefix("skipped ") }.count
            models += 1
        }
        print("round trips: \(models) model files, \(entities) entities, \(properties) properties compared, \(skipped) attributes left nil (listed above)")
        #expect(models >= 16)
    }
}
