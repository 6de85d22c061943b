import BenchmarkData
import Faultline
import FaultlineBench

/// What one profile runs on: a store, the Faultline workload over it and the
/// raw reference for the same reads. Built lazily, so `--list` and `--filter`
/// never build a store they do not need.
protocol ProfiledData: AnyObject {
    /// Objects read per iteration (the throughput's divisor).
    var items: Int { get }
    func container() throws -> PersistentContainer
    func storePath() throws -> String
    func run(_ strategy: FaultStrategy, in context: ManagedObjectContext) throws -> Int
    /// Builds what the raw reference needs, outside the clock.
    func prepareRaw() throws
    /// The raw reference's reads; returns a checksum.
    func runRaw() throws -> Int64
    /// Fails unless `result` is what `strategy`'s line (`.raw`: the
    /// reference) should have read.
    func verify(_ strategy: FaultStrategy, result: Int64) throws
}

/// A generated object graph (`--graph`), shared through the suite's store cache.
final class GeneratedGraphData: ProfiledData {
    let workload: GraphWorkload
    private let stores: StoreCache

    init(_ workload: GraphWorkload, stores: StoreCache) {
        self.workload = workload
        self.stores = stores
    }

    /// The touched parents and everything below them along the key paths.
    var items: Int {
        var count = workload.touched.count
        var level = workload.touched.count
        for fanOut in workload.shape.fanOuts.prefix(workload.pattern.depth) {
            level *= fanOut
            count += level
        }
        return count
    }

    func container() throws -> PersistentContainer { try stores.store(for: workload.shape).container }
    func storePath() throws -> String { try stores.store(for: workload.shape).url.path }
    func run(_ strategy: FaultStrategy, in context: ManagedObjectContext) throws -> Int {
        try workload.run(strategy, in: context)
    }
    func prepareRaw() throws { _ = try stores.rawReader(for: workload) }
    func runRaw() throws -> Int64 { try stores.rawReader(for: workload).run() }

    /// Against the generated store read by plain SQL.
    func verify(_ strategy: FaultStrategy, result: Int64) throws {
        let path = try storePath()
        if strategy == .raw {
            try workload.verifyRaw(result, rows: stores.rawReader(for: workload).lastRun.rowsReturned, storePath: path)
        } else {
            try workload.verifyTitles(result, storePath: path)
        }
    }
}

/// A user's model (`--model`), over a copy of their store or synthetic data.
final class UserModelData: ProfiledData {
    let store: ModelProfileStore
    let workload: ModelWorkload
    let items: Int
    private let reader: RawModelReader
    /// What the raw reads and a lazy walk returned once, before any line ran.
    private let expected: (raw: Int64, visits: Int)

    /// Opens (or generates) the store at once: the model profile is the only
    /// profile of its run, and its items come from the data.
    init(_ request: ModelProfileRequest) throws {
        let (model, name) = try request.modelPath.map { try ModelProfileStore.readModel($0, version: request.version) }
            ?? ModelProfileStore.readCachedModel(ofStore: request.storePath ?? "")
        let schema = try StoreSchema(compiling: model.checked())
        let tree = try KeyPathTree(entity: request.entity, keyPaths: request.pattern.keyPaths, schema: schema)
        if let storePath = request.storePath {
            store = try ModelProfileStore(model: model, modelName: name, storePath: storePath)
        } else {
            let synthetic = try SyntheticModelData(tree: tree, objects: request.objects, fanOut: request.fanOut)
            store = try ModelProfileStore(model: model, modelName: name, synthetic: synthetic)
        }
        do {
            let keys = try store.keys(of: tree.root)
            workload = try ModelWorkload(tree: tree, pattern: request.pattern, objectCount: keys.count)
            reader = try RawModelReader(storePath: store.url.path, workload: workload, keys: keys)
            let raw = try reader.run()
            items = workload.touched.count + reader.lastRun.rowsReturned - keys.count
            expected = (raw, try workload.run(.lazy, in: store.container.newBackgroundContext()))
        } catch {
            store.remove()
            throw error
        }
    }

    func container() throws -> PersistentContainer { store.container }
    func storePath() throws -> String { store.url.path }
    func run(_ strategy: FaultStrategy, in context: ManagedObjectContext) throws -> Int {
        try workload.run(strategy, in: context)
    }
    func prepareRaw() throws {}
    func runRaw() throws -> Int64 { try reader.run() }

    /// A user's model has no generator that knows its rows: every strategy
    /// must read what the lazy walk read before the run, the raw reads what
    /// they read then. Weaker than the generated graph's check (the lazy walk
    /// is Faultline's own), but a strategy that drops or adds objects fails.
    func verify(_ strategy: FaultStrategy, result: Int64) throws {
        let wanted = strategy == .raw ? expected.raw : Int64(expected.visits)
        guard result == wanted else {
            throw VerificationFailure("\(strategy) read \(result), expected \(wanted) (\(strategy == .raw ? "the raw reads" : "the lazy walk") before the run)")
        }
    }
}
