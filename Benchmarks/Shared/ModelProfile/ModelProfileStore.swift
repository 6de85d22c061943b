import Faultline
import FaultlineSQLite
import Foundation

/// The store a model profile runs on, in its own temporary folder: a copy of
/// the user's Core Data store (with its `-wal`/`-shm`, so the original is never
/// touched), or a store of synthetic data of the model's shape.
public final class ModelProfileStore: @unchecked Sendable {
    public let model: ManagedObjectModel
    /// The model's label in reports: the bundle's name and version.
    public let modelName: String
    public let url: URL
    public let container: PersistentContainer
    private let directory: URL

    /// Opens a copy of the Core Data store at `storePath` with `model`,
    /// matched as `CoreDataStore` matches.
    public init(model: ManagedObjectModel, modelName: String, storePath: String) throws {
        self.model = model
        self.modelName = modelName
        directory = try Self.makeDirectory()
        let source = URL(fileURLWithPath: storePath)
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw ObjectGraphInputError("no store at '\(storePath)'")
        }
        url = directory.appendingPathComponent(source.lastPathComponent)
        do {
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source.path + suffix) {
                try FileManager.default.copyItem(atPath: source.path + suffix, toPath: url.path + suffix)
            }
            container = try PersistentContainer(coreDataStoreAt: url, model: model)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// A new store of the model filled with `SyntheticModelData`.
    public init(model: ManagedObjectModel, modelName: String, synthetic shape: SyntheticModelData) throws {
        self.model = model
        self.modelName = modelName
        directory = try Self.makeDirectory()
        url = directory.appendingPathComponent("synthetic.sqlite")
        do {
            container = try PersistentContainer(model: model, location: .file(url))
            try shape.fill(container)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// The primary keys of `node`'s entity, ascending: what the workload's
    /// touched indexes refer to.
    public func keys(of node: KeyPathTree.Node) throws -> [Int64] {
        let connection = try Connection(.file(url.path), configuration: .inspecting(url.path))
        let sql = "SELECT Z_PK FROM \(node.mapping.table)\(RawModelReader.entityFilter(node.mapping, "WHERE")) ORDER BY Z_PK"
        return try connection.rows(sql).compactMap { row in
            if case .integer(let key)? = row.first { return key }
            return nil
        }
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("faultline-model-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The model Core Data cached in the store at `storePath` (`Z_MODELCACHE`),
    /// and its label; stand-in transformers are registered for the ones it names.
    public static func readCachedModel(ofStore storePath: String) throws -> (model: ManagedObjectModel, name: String) {
        let cached = try CompiledModelReader.model(fromModelCacheOf: URL(fileURLWithPath: storePath))
        ValueTransformerRegistry.registerMissing(in: cached.model, standIn: PassThroughTransformer())
        return (cached.model, "Z_MODELCACHE of " + URL(fileURLWithPath: storePath).lastPathComponent)
    }

    /// The current version (or `version`) of the model file at `path`, and its
    /// label; stand-in transformers are registered for the ones it names.
    public static func readModel(_ path: String, version: String?) throws -> (model: ManagedObjectModel, name: String) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ObjectGraphInputError("no model file at '\(path)'")
        }
        let bundle = try ModelBundle.read(at: URL(fileURLWithPath: path))
        guard let chosen = version.map({ bundle.version(named: $0) }) ?? bundle.current else {
            let names = bundle.versions.map(\.name).joined(separator: ", ")
            throw ObjectGraphInputError(version.map { "model '\(path)' has no version '\($0)'; its versions: \(names)" }
                                        ?? "model '\(path)' has no current version; its versions: \(names)")
        }
        ValueTransformerRegistry.registerMissing(in: chosen.model, standIn: PassThroughTransformer())
        let name = bundle.versions.count > 1 ? "\(bundle.name)/\(chosen.name)" : bundle.name
        return (chosen.model, name)
    }
}

/// Stands in for the value transformers a model names and this process lacks
/// (an app's `ImageToDataTransformer`): a profile reads a transformable value
/// as its stored bytes, so it measures the store, not the app's decoding.
struct PassThroughTransformer: AttributeValueTransformer {
    struct NotData: Error {}

    func encode(_ value: Any) throws -> Data {
        guard let data = value as? Data else { throw NotData() }
        return data
    }

    func decode(_ data: Data) throws -> Any { data }
}
