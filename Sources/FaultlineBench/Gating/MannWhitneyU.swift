import Foundation

/// The two-sided Mann–Whitney U test (Wilcoxon rank-sum): are two samples
/// drawn from the same distribution, or is one shifted against the other?
///
/// Ranks are averaged over ties. Without ties and with both samples no larger
/// than `exactLimit`, the p-value is exact (the U distribution counted by
/// dynamic programming); otherwise it uses the normal approximation with the
/// tie correction of the variance and a continuity correction of ½ — the same
/// figures as R's `wilcox.test` and SciPy's `mannwhitneyu`.
public struct MannWhitneyU: Equatable, Sendable {
    public enum Method: String, Sendable {
        case exact
        case normalApproximation
    }

    /// U of the first sample: the number of (x, y) pairs with x > y, ties counting ½.
    public let u1: Double
    /// U of the second sample: `n1 · n2 − u1`.
    public let u2: Double
    /// The two-sided p-value.
    public let pValue: Double
    public let method: Method

    /// Tests `x` against `y`; nil when either sample is empty.
    public init?(_ x: [Double], _ y: [Double], exactLimit: Int = 20) {
        guard !x.isEmpty, !y.isEmpty else { return nil }
        let n1 = x.count
        let n2 = y.count
        let (ranks, tieGroups) = Self.ranks(of: x + y)
        let rankSum = ranks.prefix(n1).reduce(0, +)
        u1 = rankSum - Double(n1 * (n1 + 1)) / 2
        u2 = Double(n1 * n2) - u1
        if tieGroups.isEmpty, n1 <= exactLimit, n2 <= exactLimit {
            method = .exact
            pValue = Self.exactPValue(u: Swift.min(u1, u2), n1: n1, n2: n2)
        } else {
            method = .normalApproximation
            pValue = Self.normalPValue(u: u1, n1: n1, n2: n2, tieGroups: tieGroups)
        }
    }

    /// Average ranks (1-based) in input order, and the sizes of tied groups.
    static func ranks(of values: [Double]) -> (ranks: [Double], tieGroups: [Int]) {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var tieGroups: [Int] = []
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count, values[order[end + 1]] == values[order[start]] { end += 1 }
            let average = Double(start + end + 2) / 2
            for position in start...end { ranks[order[position]] = average }
            if end > start { tieGroups.append(end - start + 1) }
            start = end + 1
        }
        return (ranks, tieGroups)
    }

    /// 2 · P(U ≤ u) under the null hypothesis, capped at 1; `u` is the smaller U.
    static func exactPValue(u: Double, n1: Int, n2: Int) -> Double {
        // counts[i][j][k]: arrangements of i x's and j y's with U = k, built up
        // one element at a time; only the last layer of i is kept.
        let maxU = n1 * n2
        var previous = [[Double]](repeating: [Double](repeating: 0, count: maxU + 1), count: n2 + 1)
        for j in 0...n2 { previous[j][0] = 1 }
        for i in 1...n1 {
            var current = [[Double]](repeating: [Double](repeating: 0, count: maxU + 1), count: n2 + 1)
            current[0][0] = 1
            for j in 1...n2 {
                for k in 0...(i * j) {
                    // The largest element is an x (beating all j y's) or a y.
                    let xLast = k >= j ? previous[j][k - j] : 0
                    current[j][k] = xLast + current[j - 1][k]
                }
            }
            previous = current
        }
        let distribution = previous[n2]
        let total = distribution.reduce(0, +)
        let limit = Int(u.rounded(.down))
        let tail = distribution.prefix(limit + 1).reduce(0, +) / total
        return Swift.min(1, 2 * tail)
    }

    static func normalPValue(u: Double, n1: Int, n2: Int, tieGroups: [Int]) -> Double {
        let n = Double(n1 + n2)
        let product = Double(n1 * n2)
        let ties = tieGroups.reduce(0.0) { $0 + Double($1 * $1 * $1 - $1) }
        let variance = product / 12 * ((n + 1) - ties / (n * (n - 1)))
        guard variance > 0 else { return 1 }
        let difference = u - product / 2
        let corrected = Swift.max(0, Swift.abs(difference) - 0.5)
        let z = corrected / variance.squareRoot()
        return Swift.min(1, erfc(z / 2.0.squareRoot()))
    }
}

extension MannWhitneyU {
    /// The smallest two-sided p-value samples of these sizes can reach (fully
    /// separated, no ties): 2 / C(n1 + n2, n1).
    public static func smallestPValue(n1: Int, n2: Int) -> Double {
        guard n1 > 0, n2 > 0 else { return 1 }
        var combinations = 1.0
        for step in 1...Swift.min(n1, n2) {
            combinations = combinations * Double(Swift.max(n1, n2) + step) / Double(step)
        }
        return Swift.min(1, 2 / combinations)
    }
}
