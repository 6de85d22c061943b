import Faultline
import FaultlineSQLite
import Foundation

/// `faultline-bench store inspect STORE [--model PATH]`: a Core Data store's
/// entities with row counts, the model version it matches (or why not) —
/// the model given, or else the one Core Data cached in the store's
/// Z_MODELCACHE — its metadata and the size of each table and index. The store is opened
/// read-only and never written.
///
/// Exit status 0 on success (a mismatch is a result, not an error), 2 on bad
/// usage, a missing or foreign file, or an unreadable model.
public enum StoreCommand {
    public static let usage = """
        usage: faultline-bench store inspect STORE [--model PATH]
          prints the entities of the Core Data SQLite store STORE with row counts, its
          tables and indexes, Z_METADATA and the size of each table and index; without
          --model, matches the store against the model cached in its Z_MODELCACHE
          --model PATH  a .xcdatamodeld, .xcdatamodel or contents file: reports which of its
                        versions the store matches, and each difference for the others
        exit status: 0 success (match or mismatch), 2 bad usage, unreadable store or model
        """

    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        guard arguments.first == "inspect" else {
            let what = arguments.first.map { "unknown store command '\($0)'" } ?? "no store command given"
            write("error: \(what)\n\(usage)\n")
            return 2
        }
        var store: String?
        var model: String?
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            if argument == "--model", model == nil, let path = rest.popFirst() {
                model = path
            } else if !argument.hasPrefix("--"), store == nil {
                store = argument
            } else {
                write("error: unexpected argument '\(argument)'\n\(usage)\n")
                return 2
            }
        }
        guard let store else {
            write("error: no store given\n\(usage)\n")
            return 2
        }
        return ModelCommand.report(write) { () throws(InspectError) in try inspect(store: store, modelPath: model) }
    }

    static func inspect(store path: String, modelPath: String?) throws(InspectError) -> (lines: [String], failed: Bool) {
        // Read the model first: a bad --model is bad input, before any output.
        let bundle = try modelPath.map { (path) throws(InspectError) in try InspectModels.bundle(at: path) }
        let contents = try StoreContents(path: path)
        var lines = ["store \(path)"]
        lines += StoreReport.entities(contents)
        lines += StoreReport.tables(contents)
        lines.append("")
        if let bundle {
            lines += StoreModelMatch.lines(store: URL(fileURLWithPath: path), bundle: bundle)
        } else {
            lines += StoreModelMatch.modelCacheLines(store: URL(fileURLWithPath: path), hasModelCache: contents.hasModelCache)
        }
        lines.append("")
        lines += StoreReport.metadata(contents.connection)
        lines.append("")
        lines += StoreReport.sizes(StoreSizes.measure(contents.connection), contents: contents)
        return (lines, false)
    }
}
