import BenchmarkData
import Faultline
import FaultlineSQLite
import Foundation
import Testing

/// Deterministic statement counts of the profiler's strategies, on a
/// generated 100 × 5 × 2 graph.
@Suite("Faulting strategies: statement counts", .serialized)
struct StatementCountTests {
    let store: ObjectGraphStore

    init() throws {
        store = try ObjectGraphStore(shape: try GraphShape(parents: 100, fanOuts: [5, 2]))
    }

    private func workload(_ fraction: Double, _ keyPaths: [String] = ["books"]) throws -> GraphWorkload {
        try GraphWorkload(
            shape: store.shape, pattern: try AccessPattern(fraction: fraction, order: .random, keyPaths: keyPaths))
    }

    /// Runs `strategy` on a fresh context with a cold row cache; returns the
    /// statements it executed and the context's counters.
    private func statements(_ strategy: FaultStrategy, _ workload: GraphWorkload) throws -> (Int, ObjectGraphCounters, Int) {
        store.container.coordinator.rowCache.removeAll()
        let context = store.container.newBackgroundContext()
        // The store's own counters: other tests in the process cannot add to them.
        let before = store.container.coordinator.sqlCounters
        let checksum = try workload.run(strategy, in: context)
        return ((store.container.coordinator.sqlCounters - before).statementsExecuted, context.counters, checksum)
    }

    @Test("The generator fills every level with Z_ENT, Z_OPT = 1 and bumps Z_MAX")
    func generator() throws {
        defer { store.remove() }
        let connection = try Connection(.file(store.url.path))
        #expect(try connection.scalar("SELECT COUNT(*) FROM ZLEVEL1") == .integer(500))
        #expect(try connection.scalar("SELECT COUNT(*) FROM ZLEVEL2 WHERE Z_OPT = 1") == .integer(1_000))
        #expect(try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Level2'") == .integer(1_000))
        #expect(try connection.scalar("SELECT COUNT(*) FROM ZLEVEL1 l JOIN Z_PRIMARYKEY p ON p.Z_ENT = l.Z_ENT WHERE p.Z_NAME = 'Level1'") == .integer(500))
        // Book 7 belongs to author 2 (5 books each), chapter 13 to book 7.
        #expect(try connection.scalar("SELECT ZAUTHOR FROM ZLEVEL1 WHERE Z_PK = 7") == .integer(2))
        #expect(try connection.scalar("SELECT ZBOOK FROM ZLEVEL2 WHERE Z_PK = 13") == .integer(7))
        // And the store reads back through a context.
        let context = store.container.newBackgroundContext()
        let books = try context.performAndWait {
            try context.fetch(FetchRequest(entityName: "Level0")).first?.value(forKey: "books") as? [ManagedObject]
        }
        #expect(books?.count == 5)
    }

    @Test("Prefetch over 100 parents: exactly 2 statements; lazy over 10 parents: 1 + 10")
    func prefetchAndLazy() throws {
        defer { store.remove() }
        let (prefetch, _, prefetchSum) = try statements(.prefetch, try workload(1))
        #expect(prefetch == 2)
        let lazyWorkload = try workload(0.1)
        #expect(lazyWorkload.touched.count == 10)
        let (lazy, counters, _) = try statements(.lazy, lazyWorkload)
        #expect(lazy == 1 + 10)
        #expect(counters.relationshipFaultsFired == 10)
        // Every strategy reads the same values.
        let (_, _, lazyAll) = try statements(.lazy, try workload(1))
        #expect(lazyAll == prefetchSum)
    }

    @Test("Two levels: prefetch 3 statements, batch 10 one fetch of IDs plus its batches, raw one per level")
    func deeper() throws {
        defer { store.remove() }
        let deep = try workload(0.1, ["books.chapters"])
        #expect(try statements(.prefetch, deep).0 == 3)
        // Lazy: the parents, then 10 books lists and 50 chapters lists.
        #expect(try statements(.lazy, deep).0 == 1 + 10 + 50)
        let reader = try RawGraphReader(store: store, workload: deep)
        _ = try reader.run()
        let raw = reader.lastRun
        #expect(raw.statementsExecuted == 3)
        #expect(raw.rowsReturned == 100 + 50 + 100)
        let (_, _, sum) = try statements(.full, deep)
        #expect(try statements(.batch(10), deep).2 == sum)
        #expect(try statements(.warmCache, deep).2 == sum)
    }
}
