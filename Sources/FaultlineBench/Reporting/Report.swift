/// The versioned JSON report a suite writes; see Results/README.md for the
/// schema with an example. Readers accept `readableSchemaVersions` and refuse
/// any other version.
public struct Report: Codable, Sendable {
    /// The schema this tool writes. Bump on any incompatible change.
    /// Version 2 added the optional per-benchmark `queryPlans`.
    public static let currentSchemaVersion = 2
    /// The schemas this tool reads: version 1 reports simply have no query plans.
    public static let readableSchemaVersions = 1...currentSchemaVersion

    public var schemaVersion: Int
    public var suite: String
    public var metadata: RunMetadata
    public var benchmarks: [BenchmarkResult]

    public init(suite: String, metadata: RunMetadata, benchmarks: [BenchmarkResult]) {
        self.schemaVersion = Report.currentSchemaVersion
        self.suite = suite
        self.metadata = metadata
        self.benchmarks = benchmarks
    }
}

extension Report {
    /// Each benchmark by id (of two with one id, the first).
    public var benchmarksByID: [String: BenchmarkResult] {
        Dictionary(benchmarks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Whether a smaller or a larger value of a metric is the better one.
public enum MetricDirection: String, Codable, Sendable {
    case lowerIsBetter
    case higherIsBetter
}

/// One metric of one benchmark: every measured sample and their summary.
public struct MetricResult: Codable, Sendable {
    public var unit: String
    public var direction: MetricDirection
    public var samples: [Double]
    public var statistics: Statistics

    public init(unit: String, direction: MetricDirection, samples: [Double]) {
        self.unit = unit
        self.direction = direction
        self.samples = samples
        self.statistics = Statistics(samples)
    }
}

/// How a benchmark compares with its reference line from the same run.
public struct ReferenceComparison: Codable, Sendable {
    /// The reference benchmark's id (name and parameters).
    public var reference: String
    /// The median of the line's wall times over its reference's, each taken
    /// beside it (`pairedIterations`); for a report without paired samples,
    /// the line's median over the reference line's median.
    public var wallTimeRatio: Double
    /// Median allocations per item minus the reference's.
    public var mallocsPerItemDelta: Double
    /// How many paired iterations `wallTimeRatio` is the median of; absent
    /// when it is a ratio of medians.
    public var pairedIterations: Int? = nil
}

/// Everything measured for one benchmark.
public struct BenchmarkResult: Codable, Sendable {
    public var id: String
    public var suite: String
    public var name: String
    public var parameters: [String: ParameterValue]
    public var items: Int
    public var warmupIterations: Int
    public var iterations: Int
    /// The reference benchmark's name, when one was declared.
    public var reference: String?
    public var metrics: [String: MetricResult]
    /// Present when the reference ran in the same report.
    public var comparison: ReferenceComparison?
    /// `EXPLAIN QUERY PLAN` text by statement label, recorded once during
    /// set-up (schema version 2); absent when the benchmark records none.
    public var queryPlans: [String: String]? = nil

    public func median(_ metric: String) -> Double? { metrics[metric]?.statistics.median }

    /// Each wall time over the reference's wall time measured beside it, or
    /// nil when the line was not measured in pairs.
    public var pairedWallTimeRatios: [Double]? {
        guard let walls = metrics[Metric.wallTime]?.samples, !walls.isEmpty,
              let references = metrics[Metric.referenceWallTime]?.samples, references.count == walls.count,
              references.allSatisfy({ $0 > 0 })
        else { return nil }
        return zip(walls, references).map { $0 / $1 }
    }
}

/// The names of the metrics every benchmark records, with units and directions.
public enum Metric {
    public static let wallTime = "wallTime"
    public static let cpuUserTime = "cpuUserTime"
    public static let cpuSystemTime = "cpuSystemTime"
    public static let throughput = "throughput"
    public static let mallocs = "mallocs"
    public static let mallocsPerItem = "mallocsPerItem"
    public static let allocatedBytes = "allocatedBytes"
    public static let bytesPerItem = "bytesPerItem"
    /// Minor page faults during the measured work (`ru_minflt`).
    public static let pageFaults = "pageFaults"
    public static let pageFaultsPerItem = "pageFaultsPerItem"
    /// Major page faults during the measured work (`ru_majflt`): reads that waited for the disk.
    public static let majorPageFaults = "majorPageFaults"
    public static let peakResidentMemory = "peakResidentMemory"
    /// SQLite's file operations under the temporary directory during the
    /// measured work (`FileIO`): syncs (fsyncs), writes and reads with their
    /// bytes (a read is a page or a header), opens. Deterministic counters.
    public static let fileSyncs = "fileSyncs"
    public static let fileSyncsPerItem = "fileSyncsPerItem"
    public static let fileWrites = "fileWrites"
    public static let fileBytesWritten = "fileBytesWritten"
    public static let fileBytesWrittenPerItem = "fileBytesWrittenPerItem"
    public static let fileReads = "fileReads"
    public static let fileBytesRead = "fileBytesRead"
    public static let fileOpens = "fileOpens"
    /// Of the bytes written, those written to write-ahead logs and rollback
    /// journals; and how large such a journal grew during the measured work
    /// (the furthest offset a write into one reached): what the work costs
    /// in journal space before a checkpoint or a commit gives it back.
    public static let journalBytesWritten = "journalBytesWritten"
    public static let journalPeakBytes = "journalPeakBytes"
    /// Instructions of one measured iteration under callgrind (`--instructions`).
    public static let instructions = "instructions"
    public static let instructionsPerItem = "instructionsPerItem"
    /// A line's reference, timed beside each of the line's iterations (the
    /// n-th sample pairs with the n-th `wallTime`).
    public static let referenceWallTime = "referenceWallTime"

    static let units: [String: (unit: String, direction: MetricDirection)] = [
        wallTime: ("ns", .lowerIsBetter),
        cpuUserTime: ("ns", .lowerIsBetter),
        cpuSystemTime: ("ns", .lowerIsBetter),
        throughput: ("items/s", .higherIsBetter),
        mallocs: ("count", .lowerIsBetter),
        mallocsPerItem: ("count/item", .lowerIsBetter),
        allocatedBytes: ("bytes", .lowerIsBetter),
        bytesPerItem: ("bytes/item", .lowerIsBetter),
        // Not "count": how many fresh pages an iteration touches depends on
        // what the heap held before it, so the gate must not read them as
        // deterministic counters.
        pageFaults: ("pages", .lowerIsBetter),
        pageFaultsPerItem: ("pages/item", .lowerIsBetter),
        majorPageFaults: ("pages", .lowerIsBetter),
        peakResidentMemory: ("bytes", .lowerIsBetter),
        fileSyncs: ("count", .lowerIsBetter),
        fileSyncsPerItem: ("count/item", .lowerIsBetter),
        fileWrites: ("count", .lowerIsBetter),
        fileBytesWritten: ("bytes", .lowerIsBetter),
        fileBytesWrittenPerItem: ("bytes/item", .lowerIsBetter),
        fileReads: ("count", .lowerIsBetter),
        fileBytesRead: ("bytes", .lowerIsBetter),
        fileOpens: ("count", .lowerIsBetter),
        journalBytesWritten: ("bytes", .lowerIsBetter),
        journalPeakBytes: ("bytes", .lowerIsBetter),
        instructions: ("count", .lowerIsBetter),
        instructionsPerItem: ("count/item", .lowerIsBetter),
        referenceWallTime: ("ns", .lowerIsBetter),
    ]

    static func unit(of name: String) -> (unit: String, direction: MetricDirection) {
        units[name] ?? ("count", .lowerIsBetter)
    }

    /// What a report records the metric `name` in: `unit(of:)`, but a
    /// callgrind phase's instructions per item in `InstructionPhase.unit`.
    static func recordedUnit(of name: String) -> (unit: String, direction: MetricDirection) {
        name.hasPrefix("instructionsPerItem.") ? (InstructionPhase.unit, .lowerIsBetter) : unit(of: name)
    }
}
