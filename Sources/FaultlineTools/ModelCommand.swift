import Faultline
import FaultlineCommandLine
import Foundation

/// `faultline model inspect PATH` and `faultline model diff OLD NEW`.
///
/// Exit status 0 on success, 2 on bad usage, a missing, foreign or malformed
/// model file (or a version that does not check). Never traps on any input.
public enum ModelCommand {
    public static let usage = """
        usage: faultline model inspect PATH
               faultline model diff OLD NEW
               faultline model generate PATH --output DIR [--version NAME] [--single-file NAME.swift]
               faultline model validate PATH SOURCE... [--version NAME]
          inspect  every version of a .xcdatamodeld or compiled .momd (the current one marked),
                   .xcdatamodel, .mom or contents file: entities, attributes, relationships, the
                   SQL schema Faultline creates for it (tables, indexes, triggers) and the
                   reader's warnings
          diff     what changed from OLD to NEW (each a .xcdatamodel, a .mom, a contents file,
                   or a .xcdatamodeld/.momd meaning its current version) and whether lightweight
                   migration covers it
          generate Swift declarations for a model's version (the current one unless --version
                   names another): a ManagedObject subclass per entity with typed keys for its
                   properties, and <Name>Model.register(in:validate:); written into DIR, one
                   file each, or all into DIR/NAME.swift with --single-file
          validate the typed keys declared in SOURCE files (or folders of .swift files) against
                   the version: missing or extra classes and keys, kinds, value types,
                   optionality and validation rules (patterns byte-exact), with file and
                   line; exit status 1 on drift
          PATH, OLD and NEW may also be a Core Data SQLite store: the model it cached (Z_MODELCACHE)
        \(CommandLineHelp.usageLine)
        exit status: 0 success, 1 drift (validate), 2 bad usage or unreadable model
        """

    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        if let status = CommandLineHelp.answer(arguments, usage: usage, write: write) { return status }
        if arguments.first == "generate" { return ModelGenerateCommand.run(Array(arguments.dropFirst()), usage: usage, write: write) }
        if arguments.first == "validate" { return ModelGenerateCommand.validate(Array(arguments.dropFirst()), usage: usage, write: write) }
        // Neither command takes an option: `--verbose` is a mistake, not a model path.
        do { _ = try arguments.map(ArgumentScanner.operand) } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        switch (arguments.first, arguments.count) {
        case ("inspect", 2):
            return report(write) { () throws(InspectError) in try inspect(path: arguments[1]) }
        case ("diff", 3):
            return report(write) { () throws(InspectError) in try ModelDiffCommand.diff(old: arguments[1], new: arguments[2]) }
        case ("inspect", _), ("diff", _):
            return CommandFailure.report("wrong number of arguments for 'model \(arguments[0])'", usage: usage, write: write)
        default:
            let what = arguments.first.map { "unknown model command '\($0)' (inspect or diff)" } ?? "no model command given"
            return CommandFailure.report(what, usage: usage, write: write)
        }
    }

    /// Writes the lines `body` returns, or its error; a body returning lines
    /// and a failure (a version that did not check) writes both and exits 2.
    static func report(_ write: (String) -> Void, _ body: () throws(InspectError) -> (lines: [String], failed: Bool)) -> Int32 {
        do {
            let result = try body()
            for line in result.lines { write(line + "\n") }
            return result.failed ? CommandFailure.status : 0
        } catch {
            return CommandFailure.report(error, write: write)
        }
    }

    static func inspect(path: String) throws(InspectError) -> (lines: [String], failed: Bool) {
        let bundle = try InspectModels.bundle(at: path)
        var lines = ["model \(bundle.name): \(bundle.versions.count) version\(bundle.versions.count == 1 ? "" : "s")"]
        for version in bundle.versions { lines.append("  \(version.name)\(version.isCurrent ? " (current)" : "")") }
        if bundle.current == nil { lines.append("  no version is marked current") }
        var failed = false
        for version in bundle.versions {
            lines.append("")
            lines.append("== version \(version.name)\(version.isCurrent ? " (current)" : "")")
            do {
                let model = try InspectModels.checked(version)
                let schema = try InspectModels.schema(model, name: version.name)
                lines += ModelPrinter.entities(model, schema: schema)
                lines += ModelPrinter.schema(schema)
            } catch {
                lines.append("error: \(error.description)")
                failed = true
            }
            lines.append("warnings:" + (version.warnings.isEmpty ? " none" : ""))
            for warning in version.warnings { lines.append("  \(warning)") }
        }
        if !bundle.bundleWarnings.isEmpty {
            lines.append("")
            lines.append("bundle warnings:")
            for warning in bundle.bundleWarnings { lines.append("  \(warning)") }
        }
        return (lines, failed)
    }
}
