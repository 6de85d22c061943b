import Dispatch
import Testing
@testable import Faultline
import FaultlineSQLite

/// A coordinator's idle readers: each box given back is taken again exactly
/// once, whether it waited in the pool's atomic slot or in its locked list,
/// and a box held by a thread is in neither.
@Suite("The reader pool hands each idle reader to one taker")
struct ReaderPoolTests {
    private static func box() throws -> ConnectionBox { ConnectionBox(try Connection(.inMemory)) }

    @Test("The reader given back last is taken first, then the others; an empty pool has none")
    func lastGivenFirstTaken() throws {
        let pool = ReaderPool()
        #expect(pool.take() == nil)
        let first = try Self.box(), second = try Self.box(), third = try Self.box()
        pool.give(first)
        pool.give(second)
        pool.give(third)
        let taken = [pool.take(), pool.take(), pool.take()]
        #expect(taken.map { $0.map(ObjectIdentifier.init) } == [first, third, second].map(ObjectIdentifier.init))
        #expect(pool.take() == nil)
    }

    @Test("Every idle reader, in the slot or the list, is visited once and stays idle")
    func forEachIdleVisitsEachOnce() throws {
        let pool = ReaderPool()
        let slotted = try Self.box(), listed = try Self.box()
        pool.give(listed)
        pool.give(slotted)
        var visited: [ObjectIdentifier] = []
        pool.forEachIdle { visited.append(ObjectIdentifier($0)) }
        #expect(Set(visited) == [ObjectIdentifier(slotted), ObjectIdentifier(listed)])
        #expect(visited.count == 2)
        var left: Set<ObjectIdentifier> = []
        while let box = pool.take() { left.insert(ObjectIdentifier(box)) }
        #expect(left == [ObjectIdentifier(slotted), ObjectIdentifier(listed)])
    }

    @Test("Threads taking and giving back concurrently never share a reader and lose none")
    func concurrentTakersNeverShare() throws {
        let pool = ReaderPool()
        let boxes = try (0..<2).map { _ in try Self.box() }
        for box in boxes { pool.give(box) }
        let takes = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 {
                guard let box = pool.take() else { continue }
                // Unsynchronised on purpose: a box two threads held at once
                // loses increments (and ThreadSanitizer reports the race).
                box.localCommits += 1
                takes.withLock { $0 += 1 }
                pool.give(box)
            }
        }
        #expect(boxes.map(\.localCommits).reduce(0, +) == takes.withLock { $0 })
        var left: Set<ObjectIdentifier> = []
        while let box = pool.take() { left.insert(ObjectIdentifier(box)) }
        #expect(left == Set(boxes.map(ObjectIdentifier.init)))
    }
}
