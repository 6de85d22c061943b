import Testing
@testable import FaultlineBench

/// jemalloc's counters see allocations the test makes itself.
@Suite("Allocation counting")
struct AllocationTests {
    final class Node {
        var value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test("jemalloc is this process's malloc and reports its version")
    func available() {
        #expect(Allocations.isAvailable)
        #expect(Allocations.version?.hasPrefix("5.") == true)
    }

    @Test("The purge delays in effect are read from jemalloc, as a run's metadata records them")
    func settings() throws {
        let settings = try #require(Allocations.settings)
        // jemalloc's own values, whatever MALLOC_CONF the test run had.
        #expect(settings.wholeMatch(of: /dirty_decay_ms:-?\d+ muzzy_decay_ms:-?\d+( \(MALLOC_CONF=.*\))?/) != nil)
        #expect(RunMetadata.current().allocatorSettings == settings)
    }

    @Test("N class instances count at least N mallocs and their bytes", arguments: [1, 100, 10_000])
    func countsKnownAllocations(count: Int) {
        var nodes: [Node] = []
        nodes.reserveCapacity(count)
        let before = Allocations.snapshot()
        for index in 0..<count { nodes.append(Node(index)) }
        let delta = Allocations.snapshot() - before
        #expect(delta.count >= UInt64(count))
        // Each instance is at least a header (16 bytes) plus its Int.
        #expect(delta.bytes >= UInt64(count * 24))
        blackHole(nodes)
    }

    @Test("Raw mallocs of every size class are counted", arguments: [8, 4_096, 1 << 20])
    func rawAllocations(size: Int) {
        let count = 50
        let before = Allocations.snapshot()
        let pointers = (0..<count).map { _ in UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8) }
        let delta = Allocations.snapshot() - before
        pointers.forEach { $0.deallocate() }
        #expect(delta.count >= UInt64(count))
        #expect(delta.bytes >= UInt64(count * size))
    }
}
