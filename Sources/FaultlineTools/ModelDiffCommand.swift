import Faultline
import Foundation

/// `faultline model diff OLD NEW`: the model changes, the schema changes
/// they make, and whether lightweight migration covers them.
enum ModelDiffCommand {
    static func diff(old oldPath: String, new newPath: String) throws(InspectError) -> (lines: [String], failed: Bool) {
        let (oldName, old) = try version(at: oldPath)
        let (newName, new) = try version(at: newPath)
        let diff = ModelDiff(old: old, new: new)
        var lines = ["diff \(oldName) → \(newName)"]
        if old.model.versionHash == new.model.versionHash && diff.changes.isEmpty {
            lines.append("no changes: same version hash, no migration needed")
            return (lines, false)
        }
        lines.append("model changes:" + (diff.changes.isEmpty ? " none itemised" : ""))
        lines += diff.changes.map { "  \($0)" }
        let oldSchema = try InspectModels.schema(old.model, name: oldName)
        let newSchema = try InspectModels.schema(new.model, name: newName)
        let schemaChanges = schemaDiff(oldSchema, newSchema)
        lines.append("schema changes:" + (schemaChanges.isEmpty ? " none" : ""))
        lines += schemaChanges.map { "  \($0)" }
        switch LightweightCheck.check(from: old, to: new) {
        case .covered:
            lines.append("lightweight migration: yes")
            for condition in diff.dataConditions { lines.append("  provided \(condition)") }
        case .refused(let reason):
            lines.append("lightweight migration: no: \(reason)")
        }
        lines.append("  (inferred by a dry run on an empty in-memory store of the old version)")
        return (lines, false)
    }

    /// The version a path names: a bundle's current version, or the one version of a file.
    private static func version(at path: String) throws(InspectError) -> (String, ModelVersion) {
        let bundle = try InspectModels.bundle(at: path)
        let chosen = bundle.versions.count == 1 ? bundle.versions.first : bundle.current
        guard let chosen else { throw InspectError("model '\(path)' has several versions and none is current") }
        _ = try InspectModels.checked(chosen)
        do {
            return (chosen.name, try ModelVersion(chosen.model, label: chosen.name))
        } catch {
            throw InspectError("version '\(chosen.name)' is not a valid model: \(error)")
        }
    }

    /// Tables, indexes and triggers added, removed or changed, by name.
    static func schemaDiff(_ old: StoreSchema, _ new: StoreSchema) -> [String] {
        func compare(_ kind: String, _ before: [(String, String)], _ after: [(String, String)]) -> [String] {
            let previous = Dictionary(before, uniquingKeysWith: { first, _ in first })
            let current = Dictionary(after, uniquingKeysWith: { first, _ in first })
            var lines: [String] = []
            for (name, statement) in after {
                if let old = previous[name] {
                    if old != statement { lines.append("~ \(kind) \(name): \(statement)") }
                } else {
                    lines.append("+ \(kind) \(name)")
                }
            }
            for (name, _) in before where current[name] == nil { lines.append("- \(kind) \(name)") }
            return lines
        }
        return compare("table", old.tables.map { ($0.name, $0.createStatement) }, new.tables.map { ($0.name, $0.createStatement) })
            + compare("index", old.indexes.map { ($0.name, $0.createStatement) }, new.indexes.map { ($0.name, $0.createStatement) })
            + compare("trigger", old.triggers.map { ($0.name, $0.createStatement) }, new.triggers.map { ($0.name, $0.createStatement) })
    }
}
