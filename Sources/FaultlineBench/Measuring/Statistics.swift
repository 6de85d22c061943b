/// Summary statistics of one metric's samples.
///
/// Percentiles interpolate linearly between closest ranks (Hyndman & Fan type 7,
/// the default of R and NumPy). The standard deviation is the sample one (n − 1);
/// the median absolute deviation is unscaled: median(|xᵢ − median|).
public struct Statistics: Codable, Hashable, Sendable {
    public var count: Int
    public var min: Double
    public var p25: Double
    public var median: Double
    public var p75: Double
    public var p90: Double
    public var p99: Double
    public var max: Double
    public var mean: Double
    public var standardDeviation: Double
    public var medianAbsoluteDeviation: Double

    /// Summarises `samples`; an empty sample set gives all zeros. O(n log n).
    public init(_ samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        guard let first = sorted.first, let last = sorted.last else {
            min = 0; p25 = 0; median = 0; p75 = 0; p90 = 0; p99 = 0; max = 0
            mean = 0; standardDeviation = 0; medianAbsoluteDeviation = 0
            return
        }
        min = first
        max = last
        p25 = Statistics.percentile(0.25, ofSorted: sorted)
        median = Statistics.percentile(0.5, ofSorted: sorted)
        p75 = Statistics.percentile(0.75, ofSorted: sorted)
        p90 = Statistics.percentile(0.90, ofSorted: sorted)
        p99 = Statistics.percentile(0.99, ofSorted: sorted)
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        self.mean = mean
        if sorted.count > 1 {
            let squares = sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            standardDeviation = (squares / Double(sorted.count - 1)).squareRoot()
        } else {
            standardDeviation = 0
        }
        let median = self.median
        let deviations = sorted.map { Swift.abs($0 - median) }.sorted()
        medianAbsoluteDeviation = Statistics.percentile(0.5, ofSorted: deviations)
    }

    /// Whether `other` holds the same summary, each figure equal up to the
    /// rounding a JSON round trip or another summation order may leave.
    func summarisesAlike(_ other: Statistics) -> Bool {
        func close(_ a: Double, _ b: Double) -> Bool {
            a == b || Swift.abs(a - b) <= 1e-9 * Swift.max(1, Swift.abs(a), Swift.abs(b))
        }
        let mine = [min, p25, median, p75, p90, p99, max, mean, standardDeviation, medianAbsoluteDeviation]
        let theirs = [other.min, other.p25, other.median, other.p75, other.p90, other.p99, other.max, other.mean,
                      other.standardDeviation, other.medianAbsoluteDeviation]
        return count == other.count && zip(mine, theirs).allSatisfy(close)
    }

    /// The `fraction` percentile (0...1) of already sorted, non-empty values.
    public static func percentile(_ fraction: Double, ofSorted sorted: [Double]) -> Double {
        guard let first = sorted.first else { return 0 }
        guard sorted.count > 1 else { return first }
        let rank = Swift.min(Swift.max(fraction, 0), 1) * Double(sorted.count - 1)
        let lower = Int(rank.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let weight = rank - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * weight
    }
}
