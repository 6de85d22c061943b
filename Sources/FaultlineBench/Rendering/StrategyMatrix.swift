/// A strategy matrix: rows (strategies) × columns (metrics) of medians, the
/// input of the report's heat map. The Faulting suite's profiler produces one
/// per graph shape; any report whose benchmarks share a name prefix and differ
/// by a `strategy` parameter yields them too.
public struct StrategyMatrix: Sendable {
    public struct Column: Sendable {
        public var name: String
        public var unit: String
        public var lowerIsBetter: Bool

        public init(name: String, unit: String, lowerIsBetter: Bool) {
            self.name = name
            self.unit = unit
            self.lowerIsBetter = lowerIsBetter
        }
    }

    public var title: String
    public var rows: [String]
    public var columns: [Column]
    /// `values[row][column]`; nil where a strategy lacks the metric.
    public var values: [[Double?]]
    /// Rows that are the others' reference (the raw SQLite line): the floor to
    /// read the others against, never a strategy to pick.
    public var referenceRows: Set<Int>

    public init(title: String, rows: [String], columns: [Column], values: [[Double?]], referenceRows: Set<Int> = []) {
        self.title = title
        self.rows = rows
        self.columns = columns
        self.values = values
        self.referenceRows = referenceRows
    }

    /// The strategies (reference rows left out) with the best value in `column`.
    public func cheapestStrategies(in column: Int) -> Set<Int> {
        best(in: column, among: rows.indices.filter { !referenceRows.contains($0) })
    }

    /// The rows with the best value in `column` (several on a tie).
    public func cheapestRows(in column: Int) -> Set<Int> {
        best(in: column, among: Array(rows.indices))
    }

    private func best(in column: Int, among rowIndexes: [Int]) -> Set<Int> {
        let candidates = rowIndexes.compactMap { row in values[row][column].map { (row, $0) } }
        let lowerIsBetter = columns[column].lowerIsBetter
        guard let best = lowerIsBetter ? candidates.map(\.1).min() : candidates.map(\.1).max() else { return [] }
        return Set(candidates.filter { $0.1 == best }.map(\.0))
    }

    /// The parameter that names a strategy.
    public static let strategyParameter = "strategy"

    /// The metrics shown, in order, when present: wall time, the work
    /// counters, any other counter (a future `faultsFired`), allocations, memory.
    static let leadingMetrics = [Metric.wallTime, "statementsExecuted", "rowsReturned"]
    static let trailingMetrics = [Metric.mallocsPerItem, Metric.peakResidentMemory]
    static let omittedCounters: Set<String> = [Metric.mallocs, "statementsPrepared", "vmSteps",
                                                "cacheHits", "cacheMisses", "cacheEvictions"]

    /// One matrix per group of benchmarks with a `strategy` parameter, grouped
    /// by name prefix (up to the first `.`) and their other parameters; groups
    /// with fewer than two strategies are left out.
    public static func matrices(from report: Report) -> [StrategyMatrix] {
        var groups: [String: [BenchmarkResult]] = [:]
        var order: [String] = []
        for result in report.benchmarks where result.parameters[strategyParameter] != nil {
            let prefix = result.name.split(separator: ".").first.map(String.init) ?? result.name
            var others = result.parameters
            others[strategyParameter] = nil
            let key = BenchmarkID.make(name: prefix, parameters: others)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(result)
        }
        return order.compactMap { key in groups[key].flatMap { matrix(title: key, $0) } }
    }

    private static func matrix(title: String, _ results: [BenchmarkResult]) -> StrategyMatrix? {
        guard results.count >= 2 else { return nil }
        let strategies = results.compactMap { $0.parameters[strategyParameter]?.description }
        let ambiguous = Set(strategies).count < strategies.count
        let rows = results.map { result in
            let strategy = result.parameters[strategyParameter]?.description ?? "?"
            return ambiguous ? "\(strategy) (\(result.name))" : strategy
        }
        let present = Set(results.flatMap(\.metrics.keys))
        let extraCounters = present.filter { name in
            !leadingMetrics.contains(name) && !trailingMetrics.contains(name) && !omittedCounters.contains(name)
                && results.contains { ["count", "count/item"].contains($0.metrics[name]?.unit) }
        }.sorted()
        let names = (leadingMetrics + extraCounters + trailingMetrics).filter(present.contains)
        let columns = names.map { name -> Column in
            let metric = results.lazy.compactMap { $0.metrics[name] }.first
            return Column(name: name, unit: metric?.unit ?? "", lowerIsBetter: metric?.direction != .higherIsBetter)
        }
        let values = results.map { result in names.map { result.metrics[$0]?.statistics.median } }
        let referenced = Set(results.compactMap { $0.comparison?.reference })
        let referenceRows = Set(results.indices.filter { referenced.contains(results[$0].id) })
        return StrategyMatrix(title: title, rows: rows, columns: columns, values: values, referenceRows: referenceRows)
    }
}
