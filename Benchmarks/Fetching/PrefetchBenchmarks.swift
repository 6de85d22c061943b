import BenchmarkData
import Faultline
import FaultlineBench

/// Prefetch: 1,000 authors × 100 books fetched as full objects with
/// `relationshipKeyPathsForPrefetching = ["books"]`, then every author's and
/// every book's title read; against the raw C reads of the same 101,000 rows
/// (`RawGraphReader`: one statement for the authors, one `IN (SELECT value
/// FROM json_each(?))` statement over all their keys for the books). The same
/// loop without prefetching (a to-many fault per author) is a line too, and
/// so is the floor under both: the same reads into plain Swift structs
/// (`strategy=records`, `GraphRecordReader`).
final class PrefetchBenchmarks {
    static let name = "prefetch"
    private var store: ObjectGraphStore?
    private var reader: RawGraphReader?
    /// Called before the graph store is built: the suite frees what earlier
    /// lines left.
    private let before: () -> Void

    init(before: @escaping () -> Void = {}) { self.before = before }

    func make(shape: GraphShape) throws -> [Benchmark] {
        let pattern = try AccessPattern(fraction: 1, order: .sequential, keyPaths: ["books"])
        let workload = try GraphWorkload(shape: shape, pattern: pattern)
        let items = shape.objectCount
        let graph: ParameterValue = .string(shape.description)
        var benchmarks = [Benchmark(
            Self.name, parameters: ["graph": graph, "strategy": "raw"], items: items,
            setUp: { ReadRun(try self.rawReader(workload)) },
            measure: { run in run.result = try run.reader.run() },
            verify: { run in
                try workload.verifyRaw(
                    run.measured(), rows: run.reader.lastRun.rowsReturned, storePath: self.graphStore(shape).url.path)
            })]
        benchmarks.append(Benchmark(
            Self.name, parameters: ["graph": graph, "strategy": "records"], items: items,
            reference: "\(Self.name) strategy=raw",
            setUp: { ReadRun(try GraphRecordReader(store: self.graphStore(shape))) },
            measure: { run in run.result = Int64(try run.reader.readTitles()) },
            verify: { run in try workload.verifyTitles(run.measured(), storePath: self.graphStore(shape).url.path) }))
        for (strategy, prefetches) in [("prefetch", true), ("lazy", false)] {
            benchmarks.append(Benchmark(
                Self.name, parameters: ["graph": graph, "strategy": .string(strategy)], items: items,
                reference: "\(Self.name) strategy=raw",
                setUp: { () throws -> ReadRun<ManagedObjectContext> in
                    let container = try self.graphStore(shape).container
                    container.coordinator.rowCache.removeAll()
                    return ReadRun(container.newBackgroundContext())
                },
                measure: { run in run.result = Int64(try Self.readTitles(in: run.reader, prefetching: prefetches)) },
                // Every author and every book: the workload's sequential walk of all parents reads the same titles.
                verify: { run in try workload.verifyTitles(run.measured(), storePath: self.graphStore(shape).url.path) },
                counters: { run in
                    ["faultsFired": run.reader.counters.faultsFired,
                     "relationshipFaultsFired": run.reader.counters.relationshipFaultsFired]
                }))
        }
        return benchmarks
    }

    static func readTitles(in context: ManagedObjectContext, prefetching: Bool) throws -> Int {
        var request = FetchRequest(entityName: ObjectGraphModel.entityNames[0])
        request.returnsObjectsAsFaults = false
        if prefetching { request.relationshipKeyPathsForPrefetching = ["books"] }
        return try context.performAndWait {
            var checksum = 0
            for author in try context.fetch(request) {
                checksum &+= author[Keys.authorTitle]?.utf8.count ?? 0
                for book in author[Keys.books] {
                    checksum &+= book[Keys.bookTitle]?.utf8.count ?? 0
                }
            }
            return checksum
        }
    }

    /// The graph store, built once (the grouped lines read it too).
    func graphStore(_ shape: GraphShape) throws -> ObjectGraphStore {
        if let store { return store }
        before()
        let made = try ObjectGraphStore(shape: shape)
        store = made
        return made
    }

    private func rawReader(_ workload: GraphWorkload) throws -> RawGraphReader {
        if let reader { return reader }
        let made = try RawGraphReader(store: graphStore(workload.shape), workload: workload)
        reader = made
        return made
    }

    func remove() {
        reader = nil
        store?.remove()
        store = nil
    }

    /// One key per entity: a slot caches its index for one entity hierarchy.
    private enum Keys {
        static let authorTitle = AttributeKey<String?>("title")
        static let bookTitle = AttributeKey<String?>("title")
        static let books = ToManyKey<ManagedObject>("books")
    }
}
