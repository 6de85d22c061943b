import Foundation
import FuzzTargets
import Testing

/// Every input kept under `Inputs/<target>/` — the fuzz targets' seeds and the
/// inputs that once found a defect — runs through its target's harness with
/// no finding: the defects stay fixed without running the fuzzer.
@Suite("Kept fuzz inputs run clean through their targets")
struct FuzzRegressionTests {
    static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Inputs")

    static func files(of target: FuzzTargetEntry) -> [URL] {
        let folder = inputs.appendingPathComponent(target.name)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test("Each target's kept inputs", arguments: FuzzTargets.all.map(\.name))
    func replay(name: String) throws {
        let target = try #require(FuzzTargets.all.first { $0.name == name })
        let files = Self.files(of: target)
        #expect(!files.isEmpty, "no inputs kept for \(name) under \(Self.inputs.path)")
        for file in files {
            let finding = target.run(try Data(contentsOf: file))
            #expect(finding == nil, "\(file.lastPathComponent): \(finding ?? "")")
        }
    }

}
