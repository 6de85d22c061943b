import Faultline
import FaultlineSQLite
import Foundation

/// Which versions of a model file a store matches (`CoreDataStore.inspect`,
/// read-only), with every difference for the versions it does not match.
enum StoreModelMatch {
    /// The model Core Data cached in the store, its entities, and whether the
    /// store matches it; or why there is none to match.
    static func modelCacheLines(store: URL, hasModelCache: Bool) -> [String] {
        guard hasModelCache else {
            return ["model: no --model given, and the store has no Z_MODELCACHE (Core Data writes one from about 2015 on)"]
                + inferredModelLines(store: store)
        }
        let version: ModelBundleVersion
        do { version = try CompiledModelReader.model(fromModelCacheOf: store) } catch {
            let line = "model cache (Z_MODELCACHE): unreadable: \(error.message)\(error.path.map { " (\($0))" } ?? "")"
            return [line] + (error.kind == .noModelCache ? inferredModelLines(store: store) : [])
        }
        let names = version.model.entities.compactMap(\.name).sorted()
        var lines = ["model cache (Z_MODELCACHE): \(names.count) entit\(names.count == 1 ? "y" : "ies"): \(names.joined(separator: ", "))"]
        lines += version.warnings.map { "  warning: \($0.message) (\($0.path))" }
        return lines + Self.lines(store: store, bundle: ModelBundle(name: "Z_MODELCACHE", versions: [version]))
    }

    /// The store matched against the model its schema implies (for reading only).
    static func inferredModelLines(store: URL) -> [String] {
        let model: ManagedObjectModel
        do { model = try CoreDataModelInference.model(ofStoreAt: store) } catch {
            return ["model inferred from the schema: none: \(error)"]
        }
        let names = model.entities.compactMap(\.name).sorted()
        var lines = ["model inferred from the schema (for reading only): \(names.count) entities: \(names.joined(separator: ", "))"]
        do {
            _ = try CoreDataModelInference.inspect(storeAt: store, inferred: model)
            lines.append("result: matches the inferred model (tables, columns, entity numbers); open it with "
                + "PersistentContainer(coreDataStoreInferringModelAt:) to read it")
        } catch {
            lines.append("result: the store does not match its inferred model: \(error)")
        }
        return lines
    }

    static func lines(store: URL, bundle: ModelBundle) -> [String] {
        var lines = ["model \(bundle.name) (\(bundle.versions.count) version\(bundle.versions.count == 1 ? "" : "s")):"]
        var matched: [String] = []
        for version in bundle.versions {
            let label = "  \(version.name)\(version.isCurrent ? " (current)" : ""): "
            let model: CheckedModel
            do { model = try InspectModels.checked(version) } catch {
                lines.append(label + "cannot check: \(error.description)")
                continue
            }
            let options = CoreDataStoreOptions(coreDataEntityVersionHashes: version.coreDataEntityVersionHashes)
            do {
                let inspection = try CoreDataStore.inspect(url: store, model: model, options: options)
                matched.append(version.name)
                lines.append(label + "matches")
                if let connection = try? Connection(.file(store.path), configuration: .inspecting(store.path)) {
                    lines += TransformableReport.lines(store: connection, model: model)
                }
                if !inspection.refusedFunctions.isEmpty {
                    lines.append("    triggers call Core Data functions Faultline refuses: "
                        + inspection.refusedFunctions.joined(separator: ", "))
                }
            } catch CoreDataStoreError.modelMismatch(_, let differences) {
                lines.append(label + "mismatch (\(differences.count) difference\(differences.count == 1 ? "" : "s"))")
                lines += differences.map { "    - \($0)" }
            } catch {
                lines.append(label + "mismatch: \(error)")
            }
        }
        if matched.isEmpty {
            lines.append("result: the store matches no version of this model")
        } else {
            let current = bundle.current.map { matched.contains($0.name) } ?? false
            lines.append("result: matches \(matched.joined(separator: ", "))"
                + (current || bundle.versions.count == 1 ? "" : " (not the current version)"))
        }
        return lines
    }
}
