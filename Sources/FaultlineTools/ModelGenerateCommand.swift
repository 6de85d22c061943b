import Faultline
import FaultlineCommandLine
import Foundation

/// `faultline model generate PATH --output DIR [--version NAME] [--single-file
/// NAME.swift]`: the Swift declarations `ModelCodeGenerator` writes for one
/// version of a model file (the current one by default), one file each in DIR
/// or all in one (what the build-tool plugin asks for). Exit status 0
/// when written, 2 on bad usage, an unreadable model or one it refuses to
/// generate (a name that is not a Swift identifier…).
enum ModelGenerateCommand {
    static func run(_ arguments: [String], usage: String, write: (String) -> Void) -> Int32 {
        var path: String?
        var output: String?
        var versionName: String?
        var singleFile: String?
        do {
            var scanner = ArgumentScanner(arguments)
            while let argument = scanner.next() {
                switch argument {
                case "--single-file":
                    guard singleFile == nil else { throw UsageError("--single-file given twice") }
                    let name = try scanner.value(for: argument)
                    guard name.hasSuffix(".swift"), !name.contains("/") else {
                        throw UsageError("--single-file needs a file name ending in .swift, got '\(name)'")
                    }
                    singleFile = name
                case "--output":
                    guard output == nil else { throw UsageError("--output given twice") }
                    output = try scanner.value(for: argument)
                case "--version":
                    guard versionName == nil else { throw UsageError("--version given twice") }
                    versionName = try scanner.value(for: argument)
                default:
                    guard path == nil else { throw UsageError("unexpected argument '\(try ArgumentScanner.operand(argument))': one model only") }
                    path = try ArgumentScanner.operand(argument)
                }
            }
            guard path != nil else { throw UsageError("no model given") }
            guard output != nil else { throw UsageError("no output directory given (--output DIR)") }
        } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        guard let path, let output else { return CommandFailure.status }
        do {
            let files = try generate(path: path, version: versionName, singleFile: singleFile)
            let directory = URL(fileURLWithPath: output, isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for file in files {
                    try Data(file.contents.utf8).write(to: directory.appendingPathComponent(file.name), options: .atomic)
                    write(directory.appendingPathComponent(file.name).path + "\n")
                }
                if singleFile == nil {
                    for stale in try staleFiles(in: directory, keeping: Set(files.map(\.name)), modelAt: path) {
                        try FileManager.default.removeItem(at: stale)
                        write("removed \(stale.path): generated from this model for an entity it no longer has\n")
                    }
                }
            } catch {
                throw InspectError("cannot write into '\(output)': \(error)")
            }
            return 0
        } catch {
            return CommandFailure.report(error, write: write)
        }
    }

    /// The Swift files in `directory`, other than `kept`, that an earlier run
    /// generated from the model file at `path` (any version of it, by their
    /// first line): left alone, a removed or renamed entity's class would stay
    /// in the build, unregistered. Files of other models or by hand stay.
    private static func staleFiles(in directory: URL, keeping kept: Set<String>, modelAt path: String) throws -> [URL] {
        let marker = Data(ModelCodeGenerator.headerPrefix(forModelAt: path).utf8)
        var stale: [URL] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        where name.hasSuffix(".swift") && !kept.contains(name) {
            let file = directory.appendingPathComponent(name)
            guard let handle = try? FileHandle(forReadingFrom: file) else { continue }
            defer { try? handle.close() }
            if let head = try? handle.read(upToCount: marker.count), head == marker { stale.append(file) }
        }
        return stale
    }

    /// `model validate PATH SOURCE... [--version NAME]`: 0 in step, 1 on drift, 2 on bad input.
    static func validate(_ arguments: [String], usage: String, write: (String) -> Void) -> Int32 {
        var operands: [String] = []
        var versionName: String?
        do {
            var scanner = ArgumentScanner(arguments)
            while let argument = scanner.next() {
                if argument == "--version" {
                    guard versionName == nil else { throw UsageError("--version given twice") }
                    versionName = try scanner.value(for: argument)
                } else {
                    operands.append(try ArgumentScanner.operand(argument))
                }
            }
            guard operands.count >= 2 else { throw UsageError("validate needs a model and at least one source file or folder") }
        } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        do {
            let model = try InspectModels.checked(try version(of: operands[0], named: versionName).version)
            var files: [(path: String, text: String)] = []
            for source in operands.dropFirst() { files += try swiftFiles(at: source) }
            let drift = ModelSourceValidator(model: model).drift(in: files)
            for item in drift { write("\(item)\n") }
            write(drift.isEmpty ? "in step: \(files.count) source files\n" : "\(drift.count) differences\n")
            return drift.isEmpty ? 0 : 1
        } catch {
            return CommandFailure.report(error, write: write)
        }
    }

    /// The `.swift` files at `path`: the file itself, or every one under a folder, sorted.
    private static func swiftFiles(at path: String) throws(InspectError) -> [(path: String, text: String)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw InspectError("no source at '\(path)'") }
        var paths = [path]
        if isDirectory.boolValue {
            let walker = FileManager.default.enumerator(atPath: path)
            paths = (walker?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }.sorted()
                .map { (path as NSString).appendingPathComponent($0) }
        }
        var files: [(String, String)] = []
        for file in paths {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw InspectError("cannot read '\(file)' as UTF-8") }
            files.append((file, text))
        }
        return files
    }

    /// The version of `path` named `name`, or its current one.
    static func version(of path: String, named name: String?) throws(InspectError)
        -> (bundle: ModelBundle, version: ModelBundleVersion)
    {
        let bundle = try InspectModels.bundle(at: path)
        let chosen = name.map { name in bundle.versions.first { $0.name == name } }
            ?? (bundle.versions.count == 1 ? bundle.versions.first : bundle.current)
        guard let chosen else {
            throw InspectError(name.map { "model '\(path)' has no version '\($0)'" }
                ?? "model '\(path)' has several versions and none is current: name one with --version")
        }
        return (bundle, chosen)
    }

    /// The files for `path`'s version `version` (the current one when nil):
    /// one per entity and the registration, or all in one named `singleFile`.
    static func generate(path: String, version versionName: String?, singleFile: String? = nil) throws(InspectError)
        -> [(name: String, contents: String)]
    {
        let (bundle, version) = try version(of: path, named: versionName)
        let model = try InspectModels.checked(version)
        let generator = ModelCodeGenerator(
            model: model, name: bundle.name, source: ModelCodeGenerator.source(forModelAt: path, version: version.name))
        do {
            if let singleFile { return [(singleFile, try generator.singleFile())] }
            return try generator.files()
        } catch {
            throw InspectError("cannot generate \(bundle.name): \(error)")
        }
    }
}
