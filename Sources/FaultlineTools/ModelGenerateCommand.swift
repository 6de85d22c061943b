import Faultline
import FaultlineCommandLine
import Foundation

/// `faultline-bench model generate PATH --output DIR [--version NAME]`: the
/// Swift declarations `ModelCodeGenerator` writes for one version of a model
/// file (the current one by default), one file each in DIR. Exit status 0
/// when written, 2 on bad usage, an unreadable model or one it refuses to
/// generate (a name that is not a Swift identifier…).
enum ModelGenerateCommand {
    static func run(_ arguments: [String], usage: String, write: (String) -> Void) -> Int32 {
        var path: String?
        var output: String?
        var versionName: String?
        do {
            var scanner = ArgumentScanner(arguments)
            while let argument = scanner.next() {
                switch argument {
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
            let files = try generate(path: path, version: versionName)
            let directory = URL(fileURLWithPath: output, isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for file in files {
                    try Data(file.contents.utf8).write(to: directory.appendingPathComponent(file.name), options: .atomic)
                    write(directory.appendingPathComponent(file.name).path + "\n")
                }
            } catch {
                throw InspectError("cannot write into '\(output)': \(error)")
            }
            return 0
        } catch {
            return CommandFailure.report(error, write: write)
        }
    }

    /// The files for `path`'s version `version` (the current one when nil).
    static func generate(path: String, version versionName: String?) throws(InspectError) -> [(name: String, contents: String)] {
        let bundle = try InspectModels.bundle(at: path)
        let chosen = versionName.map { name in bundle.versions.first { $0.name == name } }
            ?? (bundle.versions.count == 1 ? bundle.versions.first : bundle.current)
        guard let version = chosen else {
            throw InspectError(versionName.map { "model '\(path)' has no version '\($0)'" }
                ?? "model '\(path)' has several versions and none is current: name one with --version")
        }
        let model = try InspectModels.checked(version)
        let generator = ModelCodeGenerator(
            model: model, name: bundle.name, source: "\(URL(fileURLWithPath: path).lastPathComponent), version \(version.name)")
        do {
            return try generator.files()
        } catch {
            throw InspectError("cannot generate \(bundle.name): \(error)")
        }
    }
}
