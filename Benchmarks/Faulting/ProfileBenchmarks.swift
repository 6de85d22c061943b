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

    static func make(_ profile: ProfilerArguments.Profile, stores: StoreCache) throws -> [Benchmark] {
        let workload = try GraphWorkload(shape: profile.shape, pattern: profile.pattern)
        let items = touchedObjects(workload)
        let order: ParameterValue = .string(profile.pattern.order.rawValue)
        let keyPaths: ParameterValue = .string(profile.pattern.keyPaths.joined(separator: ","))
        let touch: ParameterValue = .string(String(profile.pattern.fraction))
        let graph: ParameterValue = .string(profile.shape.description)
        return FaultStrategy.all.map { strategy in
            let parameters: KeyValuePairs<String, ParameterValue> = [
                "graph": graph, "touch": touch, "order": order, "keypaths": keyPaths,
                "strategy": .string(strategy.description),
            ]
            if strategy == .raw {
                return Benchmark(
                    name, parameters: parameters, items: items,
                    setUp: { try stores.rawReader(for: workload) },
                    measure: { reader in blackHole(try reader.run()) })
            }
            return Benchmark(
                name, parameters: parameters, items: items, reference: "\(name) strategy=raw",
                queryPlans: { try plans(of: strategy, workload, stores: stores) },
                setUp: { () throws -> ManagedObjectContext in
                    let container = try stores.store(for: workload.shape).container
                    container.coordinator.rowCache.removeAll()
                    if strategy == .warmCache {
                        _ = try workload.run(.lazy, in: container.newBackgroundContext())
                    }
                    return container.newBackgroundContext()
                },
                measure: { context in blackHole(try workload.run(strategy, in: context)) },
                counters: { context in
                    let counters = context.counters
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
    static func plans(of strategy: FaultStrategy, _ workload: GraphWorkload,
                      stores: StoreCache) throws -> [String: String] {
        let store = try stores.store(for: workload.shape)
        store.container.coordinator.rowCache.removeAll()
        let context = store.container.newBackgroundContext()
        let statements = try StatementLog.record { try workload.run(strategy, in: context) }.statements
        store.container.coordinator.rowCache.removeAll()
        var configuration = Connection.Configuration()
        configuration.readOnly = true
        let connection = try Connection(.file(store.url.path), configuration: configuration)
        var plans: [String: String] = [:]
        for sql in statements where sql.hasPrefix("SELECT") {
            plans[sql.trimmingCharacters(in: .whitespaces)] = try QueryPlan.explain(sql, on: connection)
        }
        return plans
    }

    /// Objects read per iteration: the touched parents and everything below
    /// them along the key paths.
    static func touchedObjects(_ workload: GraphWorkload) -> Int {
        var count = workload.touched.count
        var level = workload.touched.count
        for fanOut in workload.shape.fanOuts.prefix(workload.pattern.depth) {
            level *= fanOut
            count += level
        }
        return count
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
