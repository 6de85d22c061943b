import BenchmarkData
import Faultline
import FaultlineBench
import FaultlineSQLite
import Foundation

/// The benchmark lines of one profile: every `FaultStrategy` over the same
/// store and access pattern, named `profile` and told apart by `strategy`,
/// each a ratio to the `raw` line.
enum ProfileBenchmarks {
    static let name = "profile"

    /// The generated graph's lines.
    static func make(_ profile: ProfilerArguments.Profile, stores: StoreCache) throws -> [Benchmark] {
        let workload = try GraphWorkload(shape: profile.shape, pattern: profile.pattern)
        let order: ParameterValue = .string(profile.pattern.order.rawValue)
        let keyPaths: ParameterValue = .string(profile.pattern.keyPaths.joined(separator: ","))
        let touch: ParameterValue = .string(String(profile.pattern.fraction))
        let graph: ParameterValue = .string(profile.shape.description)
        return make(GeneratedGraphData(workload, stores: stores)) { strategy in
            ["graph": graph, "touch": touch, "order": order, "keypaths": keyPaths, "strategy": strategy]
        }
    }

    /// A user's model's lines: `model`, `entity` and `data` (`store` or
    /// `synthetic OBJECTSxFANOUT`) name what was profiled.
    static func make(_ request: ModelProfileRequest, data: UserModelData) -> [Benchmark] {
        let model: ParameterValue = .string(data.store.modelName)
        let entity: ParameterValue = .string(request.entity)
        let source: ParameterValue = .string(request.storePath == nil ? "synthetic \(request.objects)x\(request.fanOut)" : "store")
        let order: ParameterValue = .string(request.pattern.order.rawValue)
        let keyPaths: ParameterValue = .string(request.pattern.keyPaths.joined(separator: ","))
        let touch: ParameterValue = .string(String(request.pattern.fraction))
        return make(data) { strategy in
            ["model": model, "entity": entity, "data": source, "touch": touch, "order": order, "keypaths": keyPaths,
             "strategy": strategy]
        }
    }

    private static func make(_ data: ProfiledData,
                             parameters: (ParameterValue) -> KeyValuePairs<String, ParameterValue>) -> [Benchmark] {
        FaultStrategy.all.map { strategy in
            let parameters = parameters(.string(strategy.description))
            if strategy == .raw {
                return Benchmark(
                    name, parameters: parameters, items: data.items,
                    setUp: { () throws -> ReadRun<Void> in
                        try data.prepareRaw()
                        return ReadRun(())
                    },
                    measure: { run in run.result = try data.runRaw() },
                    verify: { run in try data.verify(.raw, result: run.measured()) })
            }
            return Benchmark(
                name, parameters: parameters, items: data.items, reference: "\(name) strategy=raw",
                queryPlans: { try plans(of: strategy, data) },
                setUp: { () throws -> ReadRun<ManagedObjectContext> in
                    let container = try data.container()
                    container.coordinator.rowCache.removeAll()
                    if strategy == .warmCache {
                        _ = try data.run(.lazy, in: container.newBackgroundContext())
                    }
                    return ReadRun(container.newBackgroundContext())
                },
                measure: { run in run.result = Int64(try data.run(strategy, in: run.reader)) },
                verify: { run in try data.verify(strategy, result: run.measured()) },
                counters: { run in
                    let counters = run.reader.counters
                    return [
                        "faultsFired": counters.faultsFired,
                        "relationshipFaultsFired": counters.relationshipFaultsFired,
                    ]
                })
        }
    }

    /// The plan of every distinct statement the strategy executes, labelled by
    /// its SQL: the workload runs once on a fresh context under a statement
    /// recording, so the gate sees the statements Faultline really issues (an
    /// index on a relationship's foreign key that stops being used fails it).
    static func plans(of strategy: FaultStrategy, _ data: ProfiledData) throws -> [String: String] {
        let container = try data.container()
        container.coordinator.rowCache.removeAll()
        let context = container.newBackgroundContext()
        let statements = try StatementLog.record { try data.run(strategy, in: context) }.statements
        container.coordinator.rowCache.removeAll()
        var configuration = Connection.Configuration()
        configuration.readOnly = true
        let connection = try Connection(.file(try data.storePath()), configuration: configuration)
        var plans: [String: String] = [:]
        for sql in statements where sql.hasPrefix("SELECT") {
            plans[sql.trimmingCharacters(in: .whitespaces)] = try QueryPlan.explain(sql, on: connection)
        }
        return plans
    }
}

/// Stores built once per shape, and the raw readers over them, kept for the
/// whole run and removed at exit.
final class StoreCache {
    private var stores: [GraphShape: ObjectGraphStore] = [:]
    private var readers: [GraphWorkload: RawGraphReader] = [:]

    func store(for shape: GraphShape) throws -> ObjectGraphStore {
        if let store = stores[shape] { return store }
        let store = try ObjectGraphStore(shape: shape)
        stores[shape] = store
        return store
    }

    func rawReader(for workload: GraphWorkload) throws -> RawGraphReader {
        if let reader = readers[workload] { return reader }
        let reader = try RawGraphReader(store: store(for: workload.shape), workload: workload)
        readers[workload] = reader
        return reader
    }

    func removeAll() {
        readers.removeAll()
        for store in stores.values { store.remove() }
        stores.removeAll()
    }
}
