import Faultline
import FaultlineCommandLine
import FaultlineSQLite
import Foundation

/// `faultline store inspect STORE [--model PATH]` (and `store migrate`,
/// StoreMigrateCommand.swift): a Core Data store's
/// entities with row counts, the model version it matches (or why not) —
/// the model given, or else the one Core Data cached in the store's
/// Z_MODELCACHE — its metadata and the size of each table and index. The store is opened
/// read-only and never written.
///
/// Exit status 0 on success (a mismatch is a result, not an error), 2 on bad
/// usage, a missing or foreign file, or an unreadable model.
public enum StoreCommand {
    public static let usage = """
        usage: faultline store inspect STORE [--model PATH]
               faultline store migrate STORE --to MODEL [--dry-run] [--allow-data-loss]
               faultline store history STORE [--model PATH] [--after N] [--json]
          inspect  prints the entities of the Core Data SQLite store STORE with row counts,
                   its tables and indexes, Z_METADATA and the size of each table and index;
                   without --model, matches the store against the model cached in its
                   Z_MODELCACHE
            --model PATH  a .xcdatamodeld, .xcdatamodel or contents file: reports which of
                          its versions the store matches, and each difference for the others
          migrate  lightweight migration of STORE to the current version of MODEL (a
                   .xcdatamodeld, .momd, .xcdatamodel or .mom), from the version of MODEL
                   or the model cache the store matches, in one transaction
            --dry-run  print the plan, a preflight over the existing rows (NULLs in
                       attributes made required, rows left without a required to-one or
                       outside a to-many's new count, rows breaking new uniqueness
                       constraints) and the migration tried on a copy; write nothing
            --allow-data-loss  migrate even to a model that carries none of the store's
                       entities, deleting every row (refused without it)
          history  prints STORE's persistent history (ATRANSACTION, ACHANGE), oldest first:
                   each transaction's number, time and who saved, and each change's object
                   URI, type, changed properties and tombstone; the store is only read
            --model PATH  read it with this model's current version, not the store's Z_MODELCACHE
            --after N     only the transactions after N (a number, or a token UUID:N)
            --json        one JSON object per transaction per line (a change feed)
        \(CommandLineHelp.usageLine)
        exit status: 0 success (inspect: match or mismatch; migrate: migrated, or would
        migrate), 1 migrate refused (or would be), 2 bad usage, unreadable store or model,
        or a store without history
        """

    public static func run(_ arguments: [String], write: (String) -> Void) -> Int32 {
        if let status = CommandLineHelp.answer(arguments, usage: usage, write: write) { return status }
        var store: String?
        var model: String?
        let storePath: String
        do {
            if arguments.first == "migrate" { return StoreMigrateCommand.run(arguments.dropFirst(), usage: usage, write: write) }
            if arguments.first == "history" { return StoreHistoryCommand.run(arguments.dropFirst(), usage: usage, write: write) }
            guard arguments.first == "inspect" else {
                throw UsageError(arguments.first.map { "unknown store command '\($0)' (inspect, migrate, history)" } ?? "no store command given")
            }
            var scanner = ArgumentScanner(arguments.dropFirst())
            while let argument = scanner.next() {
                if argument == "--model" {
                    guard model == nil else { throw UsageError("--model given twice") }
                    model = try scanner.value(for: argument)
                } else if store == nil {
                    store = try ArgumentScanner.operand(argument)
                } else {
                    throw UsageError("unexpected argument '\(try ArgumentScanner.operand(argument))': one STORE only")
                }
            }
            guard let store else { throw UsageError("no store given") }
            storePath = store
        } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        return ModelCommand.report(write) { () throws(InspectError) in try inspect(store: storePath, modelPath: model) }
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
