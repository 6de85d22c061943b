import Foundation
import Testing

/// Inside the core, a folder uses only the types of the folders below it, so
/// the layers read bottom up and each can be understood without those above.
/// The targets split off below the core are checked by the compiler; this
/// checks the folders that are still one module. Known exceptions are listed
/// with their reason; the list only shrinks: an exception that no longer
/// occurs fails the test until it is removed.
@Suite("Layering: no folder of the core uses a type of a folder above it")
struct LayeringTests {
    /// Bottom up. A folder not present (moved to its own target) is skipped.
    static let layers = [
        "Support", "Text", "Model", "ModelFile", "CompiledModel", "Predicate", "Schema", "Query", "Store", "Context",
        "Fetch", "Live", "History", "Batch", "Migration", "CoreDataStore",
    ]

    /// Back edges that remain, as "Folder -> Folder: Type".
    static let knownBackEdges: [String: String] = [:]

    @Test("Every use of a type crosses downward, or is a listed exception")
    func usesPointDown() throws {
        let tree = try SourceTree()
        let owners = tree.declaredTypes()
        #expect(owners.count > 100, "the scan found the core's types")
        var backEdges: Set<String> = []
        for file in tree.files {
            guard let level = Self.layers.firstIndex(of: file.folder) else {
                Issue.record("\(file.path): folder \(file.folder) has no place in LayeringTests.layers")
                continue
            }
            for name in SourceTree.identifiers(in: file.code) {
                guard let owner = owners[name], owner != file.folder, let ownerLevel = Self.layers.firstIndex(of: owner)
                else { continue }
                if ownerLevel > level { backEdges.insert("\(file.folder) -> \(owner): \(name)") }
            }
        }
        #expect(backEdges.subtracting(Self.knownBackEdges.keys) == [], "new back edges")
        #expect(Set(Self.knownBackEdges.keys).subtracting(backEdges) == [], "fixed: remove them from knownBackEdges")
    }

    @Test("A file named Type+Topic.swift sits in the folder that declares Type")
    func extensionFilesSitWithTheirType() throws {
        let tree = try SourceTree()
        let owners = tree.declaredTypes()
        var misplaced: [String] = []
        for file in tree.files where file.name.contains("+") {
            let type = String(file.name.prefix { $0 != "+" })
            if let owner = owners[type], owner != file.folder { misplaced.append("\(file.path) (\(type) is in \(owner)/)") }
        }
        #expect(misplaced == [])
    }

    @Test("A file named Type+Topic.swift extends only Type (or a type nested in it), in every target of the core and the harness",
          arguments: ["Faultline", "FaultlineSupport", "FaultlineModel", "FaultlineModelFiles", "FaultlinePredicate",
                      "FaultlineSchema", "FaultlineSQLite", "FaultlineBench", "FaultlineTools"])
    func extensionFilesExtendOnlyTheirType(target: String) throws {
        let tree = try SourceTree(target: target)
        #expect(!tree.files.isEmpty, "the scan found \(target)'s sources")
        var strays: [String] = []
        for file in tree.files where file.name.contains("+") {
            let type = String(file.name.prefix { $0 != "+" })
            for line in file.code.split(separator: "\n") where line.hasPrefix("extension ") {
                let extended = line.dropFirst("extension ".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
                if extended != type && !extended.hasPrefix(type + ".") { strays.append("\(file.path): extension \(extended)") }
            }
        }
        #expect(strays == [])
    }
}
