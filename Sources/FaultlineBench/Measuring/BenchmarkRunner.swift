import FaultlineSQLite

/// Runs one benchmark: warm-up iterations, then measured ones, each phase
/// until its iteration count or the time budget is reached, probing every metric around
/// the measured closure only.
///
/// A line with a reference is measured in pairs: each iteration of the line
/// runs beside one of its reference, alternating which goes first, and the
/// reference's wall time is recorded as the line's `referenceWallTime`. The
/// reference's own line ran minutes earlier on a shared machine whose speed
/// drifts; a ratio of two runs taken back to back cancels most of that drift.
///
/// Every iteration, warm-up and measured, reference and line, is verified
/// after its probes are read. After every one rather than after the last:
/// each iteration works on its own fresh state, so a wrong row in any of
/// them is a wrong figure in the samples, and a read-back of a count and a
/// few rows is cheap beside the work measured. Warm-ups too, so a line that
/// writes the wrong rows stops before its measured iterations are spent.
struct BenchmarkRunner {
    let options: RunOptions
    /// Whose file I/O the iterations count: the suites' stores, by default.
    var files: IOScope? = FileIO.scope
    /// Whether allocations are counted: only while jemalloc serves malloc, or
    /// a run under another malloc would report zero allocations as measured.
    var countsAllocations = Allocations.servesMalloc

    /// The raw per-iteration figures, in Metric names.
    private struct Samples {
        var values: [String: [Double]] = [:]
        mutating func add(_ name: String, _ value: Double) { values[name, default: []].append(value) }
    }

    func run(
        _ benchmark: Benchmark, pairedWith reference: Benchmark? = nil, suite: String,
        progress: (_ iteration: Int, _ of: Int) -> Void = { _, _ in }
    ) throws -> BenchmarkResult {
        let plans = try benchmark.queryPlans?()
        let budget = UInt64(min(max(options.maxSeconds, 0), RunOptions.longestBudget) * 1e9)
        let warmedUp = try warmUp(benchmark, pairedWith: reference, budget: budget)
        var samples = Samples()
        let budgetStart = ProcessClock.wallNanoseconds()
        var measured = 0
        // Verification is not the line's work: it spends none of its budget,
        // so checking a line never costs it measured iterations.
        var verifying: UInt64 = 0
        while measured < options.iterations {
            progress(measured + 1, options.iterations)
            if let reference {
                var referenceSamples = Samples()
                if measured.isMultiple(of: 2) { verifying &+= try measureOnce(reference, into: &referenceSamples) }
                verifying &+= try measureOnce(benchmark, into: &samples)
                if !measured.isMultiple(of: 2) { verifying &+= try measureOnce(reference, into: &referenceSamples) }
                for wall in referenceSamples.values[Metric.wallTime] ?? [] { samples.add(Metric.referenceWallTime, wall) }
            } else {
                verifying &+= try measureOnce(benchmark, into: &samples)
            }
            measured += 1
            if ProcessClock.wallNanoseconds() &- budgetStart &- verifying > budget { break }
        }
        var results: [String: MetricResult] = [:]
        for (name, values) in samples.values {
            let (unit, direction) = Metric.unit(of: name)
            results[name] = MetricResult(unit: unit, direction: direction, samples: values)
        }
        return BenchmarkResult(
            id: benchmark.id, suite: suite, name: benchmark.name,
            parameters: benchmark.parameterDictionary, items: benchmark.items,
            warmupIterations: warmedUp, iterations: measured,
            reference: benchmark.reference, metrics: results, comparison: nil, queryPlans: plans)
    }

    /// Runs up to `--warmup` unmeasured iterations (each with its reference's
    /// beside it) and returns how many ran. They stop as measured iterations
    /// do: none starts once the warm-ups have spent `budget`, verification
    /// excluded, and the first always runs. The warm-ups get a budget of their
    /// own rather than a share of the measured one, so a long warm-up never
    /// costs a line its samples; a line whose iteration takes longer than the
    /// budget gets one warm-up, not `--warmup` of them.
    private func warmUp(_ benchmark: Benchmark, pairedWith reference: Benchmark?, budget: UInt64) throws -> Int {
        let start = ProcessClock.wallNanoseconds()
        var verifying: UInt64 = 0
        var warmed = 0
        while warmed < options.warmupIterations {
            for line in [reference, benchmark].compactMap({ $0 }) {
                let iteration = try line.makeIteration()
                try iteration.measure()
                verifying &+= try finish(iteration, of: line, "a warm-up iteration")
            }
            warmed += 1
            if ProcessClock.wallNanoseconds() &- start &- verifying > budget { break }
        }
        return warmed
    }

    /// Verifies the iteration, then tears it down, even when verification
    /// fails (so a failing line leaves no scratch files behind). Returns the
    /// wall time verification took.
    @discardableResult
    private func finish(_ iteration: Benchmark.Iteration, of benchmark: Benchmark, _ label: String) throws -> UInt64 {
        let start = ProcessClock.wallNanoseconds()
        do {
            try iteration.verify()
        } catch {
            try? iteration.tearDown()
            let name = benchmark.id
            throw IterationVerificationError(iteration: "\(label) of \(name)", underlying: error)
        }
        let spent = ProcessClock.wallNanoseconds() &- start
        try iteration.tearDown()
        return spent
    }

    /// Measures one iteration into `samples`; returns the time its
    /// verification took.
    private func measureOnce(_ benchmark: Benchmark, into samples: inout Samples) throws -> UInt64 {
        let iteration = try benchmark.makeIteration()
        let countersBefore = SQLiteCounters.processTotals()
        PeakMemory.reset()
        // Before the probes: a line's id is built on each call, and its
        // allocations must not count (the question is only asked under valgrind).
        let collects = InstructionCount.collectedLine != nil && InstructionCount.collects(benchmark.id)
        files?.resetJournalPeak()
        let ioBefore = files?.counts ?? IOCounts()
        let allocationsBefore = countsAllocations ? Allocations.snapshot() : nil
        let cpuBefore = ProcessClock.usage()
        let start = ProcessClock.wallNanoseconds()

        if collects { InstructionCount.toggleCollection() }
        try iteration.measure()
        if collects { InstructionCount.toggleCollection() }

        let end = ProcessClock.wallNanoseconds()
        let cpuAfter = ProcessClock.usage()
        let allocations = allocationsBefore.map { Allocations.snapshot() - $0 }
        let io = (files?.counts ?? IOCounts()) - ioBefore
        let counters = SQLiteCounters.processTotals() - countersBefore
        let peak = PeakMemory.highWaterMarkBytes()
        let extraCounters = try iteration.counters()
        let verifying = try finish(iteration, of: benchmark, "a measured iteration")

        let wall = Double(end &- start)
        let items = Double(benchmark.items)
        samples.add(Metric.wallTime, wall)
        samples.add(Metric.cpuUserTime, Double(cpuAfter.user &- cpuBefore.user))
        samples.add(Metric.cpuSystemTime, Double(cpuAfter.system &- cpuBefore.system))
        samples.add(Metric.throughput, wall > 0 ? items / (wall / 1e9) : 0)
        if let allocations {
            samples.add(Metric.mallocs, Double(allocations.count))
            samples.add(Metric.mallocsPerItem, Double(allocations.count) / items)
            samples.add(Metric.allocatedBytes, Double(allocations.bytes))
            samples.add(Metric.bytesPerItem, Double(allocations.bytes) / items)
        }
        let pageFaults = Double(cpuAfter.minorFaults &- cpuBefore.minorFaults)
        samples.add(Metric.pageFaults, pageFaults)
        samples.add(Metric.pageFaultsPerItem, pageFaults / items)
        samples.add(Metric.majorPageFaults, Double(cpuAfter.majorFaults &- cpuBefore.majorFaults))
        if let peak { samples.add(Metric.peakResidentMemory, Double(peak)) }
        samples.add(Metric.fileSyncs, Double(io[.sync]))
        samples.add(Metric.fileSyncsPerItem, Double(io[.sync]) / items)
        samples.add(Metric.fileWrites, Double(io[.write]))
        samples.add(Metric.fileBytesWritten, Double(io.bytesWritten))
        samples.add(Metric.fileBytesWrittenPerItem, Double(io.bytesWritten) / items)
        samples.add(Metric.fileReads, Double(io[.read]))
        samples.add(Metric.fileBytesRead, Double(io.bytesRead))
        samples.add(Metric.fileOpens, Double(io[.open]))
        samples.add(Metric.journalBytesWritten, Double(io.journalBytesWritten))
        samples.add(Metric.journalPeakBytes, Double(io.journalPeakBytes))
        for (name, value) in counters.named { samples.add(name, Double(value)) }
        // Extra counters never overwrite the harness's own metrics.
        for (name, value) in extraCounters where Metric.units[name] == nil && !counters.named.contains(where: { $0.name == name }) {
            samples.add(name, value)
        }
        return verifying
    }
}
