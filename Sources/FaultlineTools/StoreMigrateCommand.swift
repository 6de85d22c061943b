import Faultline
import FaultlineCommandLine
import Foundation

/// `faultline store migrate STORE --to MODEL [--dry-run]`: lightweight
/// migration of a Core Data store to MODEL's current version, from whichever
/// of MODEL's versions (or the store's own Z_MODELCACHE) the store matches, as
/// Core Data's automatic migration finds its source. The dry run prints the
/// plan (the model changes), a preflight over the existing rows (NULLs in
/// attributes made required, rows left without a required to-one or outside a
/// to-many's new count, rows breaking new uniqueness constraints) and the
/// migration tried on a temporary copy, and writes nothing.
enum StoreMigrateCommand {
    static func run(_ arguments: ArraySlice<String>, usage: String, write: (String) -> Void) -> Int32 {
        var store: String?
        var model: String?
        var dryRun = false
        var allowsDataLoss = false
        do {
            var scanner = ArgumentScanner(arguments)
            while let argument = scanner.next() {
                switch argument {
                case "--to":
                    guard model == nil else { throw UsageError("--to given twice") }
                    model = try scanner.value(for: argument)
                case "--dry-run":
                    guard !dryRun else { throw UsageError("--dry-run given twice") }
                    dryRun = true
                case "--allow-data-loss":
                    guard !allowsDataLoss else { throw UsageError("--allow-data-loss given twice") }
                    allowsDataLoss = true
                default:
                    guard store == nil else { throw UsageError("unexpected argument '\(try ArgumentScanner.operand(argument))': one STORE only") }
                    store = try ArgumentScanner.operand(argument)
                }
            }
            guard store != nil else { throw UsageError("no store given") }
            guard model != nil else { throw UsageError("no target model given (--to MODEL)") }
        } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        guard let store, let model else { return CommandFailure.status }
        do {
            let (lines, refused) = try migrate(store: store, model: model, dryRun: dryRun, allowsDataLoss: allowsDataLoss)
            for line in lines { write(line + "\n") }
            return refused ? 1 : 0
        } catch {
            return CommandFailure.report(error, write: write)
        }
    }

    /// The report, and whether the migration was (or would be) refused.
    static func migrate(store path: String, model modelPath: String, dryRun: Bool, allowsDataLoss: Bool = false)
        throws(InspectError) -> ([String], Bool)
    {
        let bundle = try InspectModels.bundle(at: modelPath)
        guard let current = bundle.versions.count == 1 ? bundle.versions.first : bundle.current else {
            throw InspectError("model '\(modelPath)' has several versions and none is current")
        }
        // What inspect says of a missing, non-SQLite or non-Core Data file, reading no row.
        _ = try StoreContents.schema(ofStoreAt: path)
        let url = URL(fileURLWithPath: path)
        let target = try version(current)
        var sources: [ModelVersion] = []
        for candidate in bundle.versions where candidate.name != current.name { sources.append(try version(candidate)) }

        var lines = ["store \(path)", "target: \(target.label) (\(bundle.name))"]
        if current.coreDataEntityVersionHashes == nil {
            lines.append("warning: the target has no compiled model (.momd) with Core Data's entity hashes: the migrated "
                + "store records Faultline's, and Core Data will not take it for this model's store")
        }
        var plan: CoreDataMigrationPlan
        do {
            plan = try CoreDataStore.planMigration(storeAt: url, to: target, from: sources, triesOnCopy: dryRun)
            // The store's own model cache is the source of last resort (one that does not check is left out).
            if plan.source == nil, !plan.isCurrent, let cached = try? CompiledModelReader.model(fromModelCacheOf: url),
               let source = try? version(cached) {
                sources.append(source)
                plan = try CoreDataStore.planMigration(storeAt: url, to: target, from: sources, triesOnCopy: dryRun)
            }
        } catch {
            throw InspectError("cannot read the store: \(error)")
        }
        if plan.isCurrent {
            lines.append("result: the store already matches \(target.label); nothing to migrate")
            return (lines, false)
        }
        guard let sourceLabel = plan.source, let source = sources.first(where: { $0.label == sourceLabel }) else {
            lines.append("source: none: the store matches no version of \(bundle.name) and not its own model cache")
            lines.append("result: cannot be migrated: \(plan.trialFailure ?? "no source version"); nothing was written")
            return (lines, true)
        }
        lines.append("source: \(source.label) (the version the store matches)")
        let diff = ModelDiff(old: source, new: target)
        lines.append("model changes:" + (diff.changes.isEmpty ? " none itemised" : ""))
        lines += diff.changes.map { "  \($0)" }
        // A target sharing no entity with the store (a mistyped --to) deletes every row.
        let wipes = diff.carriedEntities == 0 && !source.model.entities.isEmpty && !allowsDataLoss
        if wipes {
            lines.append("data loss: \(target.label) carries none of the store's entities, so every row would be deleted; "
                + "pass --allow-data-loss if that is meant")
        }
        lines.append("preflight over the existing rows:")
        lines += (plan.preflight?.description ?? "not run").split(separator: "\n").map { "  \($0)" }
        if dryRun { lines.append("trial on a copy: " + (plan.trialFailure.map { "fails: \($0)" } ?? "the migration succeeds")) }
        let refusable = plan.trialFailure != nil || plan.preflight?.isClean == false || wipes
        if dryRun {
            lines.append(refusable ? "result: would be refused; nothing was written (dry run)"
                                   : "result: can be migrated; nothing was written (dry run)")
            return (lines, refusable)
        }
        if wipes {
            lines.append("result: refused: the migration would delete every row; nothing was written")
            return (lines, true)
        }
        do {
            try CoreDataStore.migrate(storeAt: url, to: target, from: sources)
            lines.append("result: migrated from \(source.label) to \(target.label)")
            return (lines, false)
        } catch {
            lines.append("result: refused: \(error); the store is unchanged")
            return (lines, true)
        }
    }

    private static func version(_ version: ModelBundleVersion) throws(InspectError) -> ModelVersion {
        _ = try InspectModels.checked(version)
        do { return try ModelVersion(version.model, label: version.name) } catch {
            throw InspectError("version '\(version.name)' is not a valid model: \(error)")
        }
    }
}
