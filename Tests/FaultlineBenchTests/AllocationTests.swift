import Testing
@testable import FaultlineBench

/// jemalloc's counters see allocations the test makes itself.
@Suite("Allocation counting")
struct AllocationTests {
    final class Node {
        var value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test("jemalloc is this process's malloc and reports its version; the run's metadata says so")
    func available() {
        #expect(Allocations.servesMalloc)
        #expect(Allocations.version?.hasPrefix("5.") == true)
        #expect(RunMetadata.current().malloc == "jemalloc")
    }

    /// Under another malloc (`LD_PRELOAD` of glibc's) jemalloc's statistics
    /// stay at zero: a report must not present that as a measured zero.
    @Test("A run that cannot count allocations records no allocation metrics, and the rest as always")
    func notCounted() throws {
        let benchmark = Benchmark("line", items: 10, setUp: { [Node]() }, measure: { nodes in
            for index in 0..<10 { nodes.append(Node(index)) }
        })
        var runner = BenchmarkRunner(options: try RunOptions.parse(["--iterations", "3", "--warmup", "0"]))
        let counted = try runner.run(benchmark, suite: "Test")
        #expect(counted.metrics[Metric.mallocs]?.samples.allSatisfy { $0 >= 10 } == true)
        runner.countsAllocations = false
        let uncounted = try runner.run(benchmark, suite: "Test")
        for metric in [Metric.mallocs, Metric.mallocsPerItem, Metric.allocatedBytes, Metric.bytesPerItem] {
            #expect(uncounted.metrics[metric] == nil, "\(metric)")
        }
        #expect(uncounted.metrics[Metric.wallTime]?.samples.count == 3)
        var metadata = RunMetadata.current()
        metadata.allocatorSettings = nil
        metadata.malloc = "system"
        #expect(ReportText.runSummary(metadata).hasSuffix(" · the system's malloc (no allocation counts)"))
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
