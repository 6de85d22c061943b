import Testing
@testable import Faultline

/// The row cache is bounded and counts exactly.
@Suite("Row cache")
struct RowCacheTests {
    private func id(_ key: Int64) -> ManagedObjectID {
        ManagedObjectID(storeIdentifier: 1, entityIndex: 0, primaryKey: key)
    }

    private func snapshot(_ version: Int64) -> RowSnapshot {
        RowSnapshot(entityIndex: 0, version: version, values: [.integer(version)], toOne: .empty)
    }

    @Test("Hits, misses and evictions are counted exactly; capacity is never exceeded", arguments: [1, 2, 3, 10])
    func bounded(capacity: Int) {
        let cache = RowCache(capacity: capacity)
        cache.store((1...Int64(capacity + 5)).map { (id($0), snapshot($0)) })
        #expect(cache.count == capacity)
        #expect(cache.counters.evictions == 5)
        let last = Int64(capacity + 5)
        #expect(cache.snapshot(for: id(last))?.version == last)
        #expect(cache.snapshot(for: id(1)) == nil)
        #expect(cache.counters.hits == 1)
        #expect(cache.counters.misses == 1)
    }

    @Test("CLOCK gives a recently read row a second chance")
    func secondChance() {
        let cache = RowCache(capacity: 2)
        cache.store([(id(1), snapshot(1)), (id(2), snapshot(2))])
        _ = cache.snapshot(for: id(1))
        cache.store([(id(3), snapshot(3))])
        #expect(cache.snapshot(for: id(1)) != nil)
        #expect(cache.snapshot(for: id(2)) == nil)
    }

    @Test("Storing a cached row again replaces its snapshot in the same slot, full or not")
    func replacement() {
        let cache = RowCache(capacity: 3)
        cache.store([(id(1), snapshot(1)), (id(2), snapshot(2))])
        cache.store([(id(1), snapshot(10))])
        #expect(cache.count == 2)
        cache.store([(id(3), snapshot(3))])
        #expect(cache.count == 3 && cache.counters.evictions == 0)
        cache.store([(id(3), snapshot(30))])
        #expect(cache.count == 3 && cache.counters.evictions == 0)
        #expect(cache.snapshot(for: id(1))?.version == 10)
        #expect(cache.snapshot(for: id(3))?.version == 30)
        cache.store([(id(4), snapshot(4))])
        #expect(cache.count == 3 && cache.counters.evictions == 1)
    }

    @Test("One row stored alone fills, replaces and evicts exactly as a batch of one", arguments: [1, 2, 3, 10])
    func storedAlone(capacity: Int) {
        let alone = RowCache(capacity: capacity)
        let batched = RowCache(capacity: capacity)
        for key in 1...Int64(capacity + 5) {
            alone.store(id(key), snapshot(key))
            batched.store([(id(key), snapshot(key))])
        }
        alone.store(id(Int64(capacity + 5)), snapshot(99))
        batched.store([(id(Int64(capacity + 5)), snapshot(99))])
        #expect(alone.count == capacity && alone.counters.evictions == 5)
        for key in 1...Int64(capacity + 5) {
            #expect(alone.snapshot(for: id(key))?.version == batched.snapshot(for: id(key))?.version)
        }
        #expect(alone.counters == batched.counters)
        #expect(alone.snapshot(for: id(Int64(capacity + 5)))?.version == 99)
    }

    @Test("Invalidation by ID and by entity")
    func invalidation() {
        let cache = RowCache(capacity: 10)
        cache.store([(id(1), snapshot(1)), (id(2), snapshot(2))])
        cache.invalidate([id(1)])
        #expect(cache.snapshot(for: id(1)) == nil)
        cache.invalidate(entities: [0])
        #expect(cache.count == 0)
        cache.store([(id(3), snapshot(3))])
        #expect(cache.snapshot(for: id(3)) != nil)
    }
    @Test("Dropping an entity's rows leaves other entities' alone; its stale rows miss, free their slots, and new ones hit")
    func entityGenerations() {
        let cache = RowCache(capacity: 4)
        let other = ManagedObjectID(storeIdentifier: 1, entityIndex: 1, primaryKey: 9)
        let otherRow = RowSnapshot(entityIndex: 1, version: 9, values: [.integer(9)], toOne: .empty)
        cache.store([(id(1), snapshot(1)), (id(2), snapshot(2)), (other, otherRow)])
        cache.invalidate(entities: [0, 5])
        #expect(cache.count == 1)
        #expect(cache.snapshot(for: other)?.version == 9)
        #expect(cache.snapshot(for: id(1)) == nil)
        cache.store([(id(2), snapshot(20)), (id(3), snapshot(3)), (id(4), snapshot(4))])
        // id(1)'s slot went back when it was asked for; id(2) was replaced in place.
        #expect(cache.count == 4 && cache.counters.evictions == 0)
        #expect(cache.snapshot(for: id(2))?.version == 20)
        cache.invalidate(entities: [0])
        cache.store([(id(5), snapshot(5)), (id(6), snapshot(6))])
        #expect(cache.count == 3)
        #expect([5, 6].allSatisfy { cache.snapshot(for: id($0))?.version == $0 })
        #expect([2, 3, 4].allSatisfy { cache.snapshot(for: id($0)) == nil })
    }

    @Test("Emptied, the cache refills to its capacity and evicts as a new one would; counters are kept")
    func emptiedAndRefilled() {
        let cache = RowCache(capacity: 3)
        cache.store((1...5).map { (id($0), snapshot($0)) })
        _ = cache.snapshot(for: id(5))
        cache.removeAll()
        #expect(cache.count == 0)
        #expect(cache.snapshot(for: id(5)) == nil)
        #expect(cache.counters == RowCache.Counters(hits: 1, misses: 1, evictions: 2))
        cache.store((11...14).map { (id($0), snapshot($0)) })
        #expect(cache.count == 3 && cache.counters.evictions == 3)
        #expect(cache.snapshot(for: id(11)) == nil)
        #expect([12, 13, 14].allSatisfy { cache.snapshot(for: id($0))?.version == $0 })
    }
}
