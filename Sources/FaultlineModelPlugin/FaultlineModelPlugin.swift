import Foundation
import PackagePlugin

/// Generates a target's typed model classes at build time: for each
/// `.xcdatamodeld` (or lone `.xcdatamodel`) in the target's folder, one build
/// command runs `faultline model generate MODEL --single-file <Name>Model.swift`
/// into the plugin's work folder, and the build compiles what it writes. The
/// model file is the only artifact the package keeps; the command runs again
/// when any file of the model changes. One output file, because a build
/// command names its outputs before it runs and the entities are only known
/// from the model.
@main
struct FaultlineModelPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let tool = try context.tool(named: "faultline")
        return try Self.models(in: target.directoryURL).map { model in
            let name = model.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(name)
            let file = output.appendingPathComponent("\(Self.typeName(name))Model.swift")
            return .buildCommand(
                displayName: "Generating typed classes from \(model.lastPathComponent)",
                executable: tool.url,
                arguments: ["model", "generate", model.path, "--output", output.path, "--single-file", file.lastPathComponent],
                inputFiles: try Self.files(under: model),
                outputFiles: [file])
        }
    }

    /// Model bundles under `folder`; a `.xcdatamodel` inside a `.xcdatamodeld` is a version of it, not a model of its own.
    static func models(in folder: URL) throws -> [URL] {
        var models: [URL] = []
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        for case let url as URL in walker where ["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension) {
            models.append(url)
            walker.skipDescendants()
        }
        return models.sorted { $0.path < $1.path }
    }

    static func files(under folder: URL) throws -> [URL] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        return (walker?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }.sorted { $0.path < $1.path }
    }

    /// The generator's registration type name for a model called `name`
    /// (`ModelCodeGenerator.typeName`): its identifier characters, capitalised.
    static func typeName(_ name: String) -> String {
        let kept = String(name.unicodeScalars.filter { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }.map(Character.init))
        guard let first = kept.first, !first.isNumber else { return "Generated" + kept }
        return first.uppercased() + kept.dropFirst()
    }
}
