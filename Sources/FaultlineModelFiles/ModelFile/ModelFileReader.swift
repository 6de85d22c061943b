// MARK: - Model files: design note
//
// What this is. Reading and writing Xcode's Core Data model format, so that a
// user's schema — the file is the schema authority — becomes a Faultline
// `ManagedObjectModel` on Linux, and a model built in code can be opened in Xcode.
//
// The format. `Name.xcdatamodeld/` is a bundle of versions: each
// `Version.xcdatamodel/contents` is one XML document (`<model>` → `<entity>` →
// `<attribute>`/`<relationship>`/…), and `.xccurrentversion` (a plist,
// `_XCCurrentVersionName`) names the current one. Compiling it gives
// `Name.momd/` whose `VersionInfo.plist` holds Core Data's entity version hashes.
//
// Invariants.
//  1. No input crashes: no force unwraps, `try!` or traps on paths fed by a file;
//     the XML tree is flat (no recursion on depth) and nesting is capped.
//  2. Nothing is dropped silently. An XML attribute or element is mapped to the
//     model, kept in `ModelFileExtras`, ignored by design because it only steers
//     code generation (`usesScalarValueType`, `syncable`), or reported as a
//     `ModelFileWarning` with its path and line.
//  3. What would change the model's meaning if ignored is an error
//     (`ModelFileError`, with file, line, column and path): malformed XML, an
//     unknown attribute type, a default or bound that does not parse, a
//     relationship to an unknown entity or inverse, a missing current version.
//  4. Round trip: `ModelFileWriter` writes what the reader reads, so read → write
//     → read gives models whose `checked()` snapshots (and version hashes) are
//     equal, and equal extras.
//  5. Models come back editable; validating them is `checked()`'s job (the
//     reader only rejects what it cannot represent).
//
// Where things are: ModelFileReader (entry points, bundles), ModelFileXMLTree
// (XMLParser → element tree), ModelFileDecoder(+Attributes, +Members) (tree →
// model), ModelFileFormat (shared vocabulary), ModelBundle / ModelFileExtras
// (results), CompiledModelInfo (.momd hashes), ModelFileWriter(+Elements) and
// XMLTextWriter (model → XML), ModelFileDiagnostics (warnings, errors).

import Foundation
import FaultlineModel

/// Reads `.xcdatamodeld` bundles, `.xcdatamodel` folders and `contents` files.
public struct ModelFileReader: Sendable {
    /// Whether `read(at:)` looks for `Name.momd` beside `Name.xcdatamodeld` (or
    /// `Name.xcdatamodel`) and attaches its version hashes. A compiled model that
    /// is found but unreadable becomes a bundle warning.
    public var discoversCompiledModel = true

    public init() {}

    /// Reads a model file or bundle.
    ///
    /// - Parameters:
    ///   - url: a `.xcdatamodeld` folder, a `.xcdatamodel` folder, or a `contents` file.
    ///   - compiledModel: a `.momd` folder whose hashes to attach; its errors are thrown.
    /// - Complexity: linear in the size of the files.
    public func read(at url: URL, compiledModel: URL? = nil) throws(ModelFileError) -> ModelBundle {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelFileError(.unreadable, "no file or folder at this path", file: url.path)
        }
        var bundle: ModelBundle
        let baseName = url.deletingPathExtension().lastPathComponent
        if isDirectory.boolValue && url.pathExtension == "xcdatamodeld" {
            bundle = try readBundle(url)
        } else if isDirectory.boolValue {
            let version = try readVersion(url.appendingPathComponent("contents"), name: baseName, isCurrent: true)
            bundle = ModelBundle(name: baseName, versions: [version])
        } else {
            let parent = url.deletingLastPathComponent()
            let name = parent.pathExtension == "xcdatamodel" ? parent.deletingPathExtension().lastPathComponent : baseName
            bundle = ModelBundle(name: name, versions: [try readVersion(url, name: name, isCurrent: true)])
        }
        if let compiledModel {
            bundle.attach(try CompiledModelInfo.read(momd: compiledModel), file: compiledModel.path)
        } else if discoversCompiledModel {
            let modelURL = url.pathExtension == "xcdatamodeld" || url.pathExtension == "xcdatamodel"
                ? url : url.deletingLastPathComponent()
            let momd = modelURL.deletingLastPathComponent().appendingPathComponent(
                modelURL.deletingPathExtension().lastPathComponent + ".momd")
            if FileManager.default.fileExists(atPath: momd.appendingPathComponent("VersionInfo.plist").path) {
                do throws(ModelFileError) {
                    bundle.attach(try CompiledModelInfo.read(momd: momd), file: momd.path)
                } catch {
                    bundle.bundleWarnings.append(ModelFileWarning(file: error.file, line: 0, column: 0, path: "/plist",
                                                                  message: "the compiled model beside the source is ignored: \(error.message)"))
                }
            }
        }
        return bundle
    }

    /// Reads one `contents` document from memory.
    ///
    /// - Parameters:
    ///   - versionName: the name to give the version.
    ///   - file: how errors and warnings name the source.
    public func readContents(_ data: Data, versionName: String = "Model", file: String = "contents") throws(ModelFileError) -> ModelBundleVersion {
        let tree = try ModelFileXMLTree.parse(data, file: file)
        var decoder = ModelFileDecoder(tree: tree, file: file)
        let model = try decoder.decode()
        return ModelBundleVersion(name: versionName, isCurrent: true, model: model, extras: decoder.extras,
                                  warnings: decoder.warnings)
    }

    // MARK: - Bundles

    /// Reads one version from its `contents` file, or, where Xcode 3 left an
    /// `elements` archive beside where `contents` would be, from that.
    private func readVersion(_ contents: URL, name: String, isCurrent: Bool) throws(ModelFileError) -> ModelBundleVersion {
        let elements = contents.deletingLastPathComponent().appendingPathComponent("elements")
        if !FileManager.default.fileExists(atPath: contents.path), let data = try? Data(contentsOf: elements) {
            let read = try readElements(data, versionName: name, file: elements.path)
            return ModelBundleVersion(name: name, isCurrent: isCurrent, model: read.model, extras: read.extras,
                                      warnings: read.warnings, sourceURL: elements)
        }
        guard let data = try? Data(contentsOf: contents) else {
            throw ModelFileError(.unreadable, "cannot read the model's contents file (nor an Xcode 3 elements file beside it)",
                                 file: contents.path)
        }
        let read = try readContents(data, versionName: name, file: contents.path)
        return ModelBundleVersion(name: name, isCurrent: isCurrent, model: read.model, extras: read.extras,
                                  warnings: read.warnings, sourceURL: contents)
    }

    /// Reads an Xcode 3 `elements` archive from memory (see ElementsArchive.swift).
    public func readElements(_ data: Data, versionName: String = "Model", file: String = "elements") throws(ModelFileError) -> ModelBundleVersion {
        let (tree, archiveWarnings) = try ElementsArchive.tree(from: data, file: file)
        var decoder = ModelFileDecoder(tree: tree, file: file)
        let model = try decoder.decode()
        return ModelBundleVersion(name: versionName, isCurrent: true, model: model, extras: decoder.extras,
                                  warnings: archiveWarnings + decoder.warnings)
    }

    private func readBundle(_ url: URL) throws(ModelFileError) -> ModelBundle {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw ModelFileError(.unreadable, "cannot list the bundle's versions", file: url.path)
        }
        let versionNames = entries.filter { $0.hasSuffix(".xcdatamodel") }
            .map { String($0.dropLast(".xcdatamodel".count)) }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        guard !versionNames.isEmpty else {
            throw ModelFileError(.unreadable, "the bundle holds no .xcdatamodel version", file: url.path)
        }
        let current = try currentVersionName(of: url, among: versionNames)
        var versions: [ModelBundleVersion] = []
        for name in versionNames {
            let contents = url.appendingPathComponent(name + ".xcdatamodel").appendingPathComponent("contents")
            versions.append(try readVersion(contents, name: name, isCurrent: name == current))
        }
        return ModelBundle(name: url.deletingPathExtension().lastPathComponent, versions: versions)
    }

    /// The version `.xccurrentversion` names; the only version when the file is absent.
    private func currentVersionName(of bundle: URL, among names: [String]) throws(ModelFileError) -> String {
        let plistURL = bundle.appendingPathComponent(".xccurrentversion")
        let file = plistURL.path
        guard FileManager.default.fileExists(atPath: file) else {
            if names.count == 1, let only = names.first { return only }
            throw ModelFileError(.missingCurrentVersion,
                                 "the bundle has \(names.count) versions and no .xccurrentversion naming the current one", file: file)
        }
        guard let data = try? Data(contentsOf: plistURL),
              let plist = try? PropertyListReader.object(from: data),
              let dictionary = plist as? [String: Any] else {
            throw ModelFileError(.missingCurrentVersion, ".xccurrentversion is not a readable property list", file: file, line: 1, column: 1)
        }
        guard let named = dictionary["_XCCurrentVersionName"] as? String else {
            throw ModelFileError(.missingCurrentVersion, ".xccurrentversion has no _XCCurrentVersionName", file: file, line: 1, column: 1)
        }
        let name = named.hasSuffix(".xcdatamodel") ? String(named.dropLast(".xcdatamodel".count)) : named
        guard names.contains(name) else {
            throw ModelFileError(.missingCurrentVersion,
                                 "the current version '\(named)' is not in the bundle (versions: \(names.joined(separator: ", ")))",
                                 file: file, line: 1, column: 1, path: "/plist/dict/_XCCurrentVersionName")
        }
        return name
    }
}
