import BenchmarkData
import FaultlineSQLite
import Foundation

/// Per-category count and sum of views, indexed by category key - 1.
struct Totals: Equatable {
    var counts: [Int64]
    var sums: [Int64]

    init(categoryCount: Int) {
        counts = Array(repeating: 0, count: categoryCount)
        sums = Array(repeating: 0, count: categoryCount)
    }

    /// What the dataset's rows add up to: the Swift-side computation.
    init(_ dataset: ArticleDataset, categoryCount: Int) {
        (counts, sums) = dataset.categoryTotals(categoryCount: categoryCount)
    }

    /// One number for the report and error messages.
    var checksum: Int64 {
        var value: Int64 = 0
        for index in counts.indices {
            value = value &* 31 &+ counts[index]
            value = value &* 31 &+ sums[index]
        }
        return value
    }
}

/// The update-heavy workload on a store holding `dataset` (article keys
/// 1…count in dataset order): every tenth article gets a new view count.
struct ViewUpdates {
    let keys: [Int64]
    let views: [Int64]
    /// The dataset row of each update.
    let rows: [Int]
    /// The per-category totals once the updates are applied.
    let expected: Totals

    init(_ dataset: ArticleDataset, categoryCount: Int) {
        let rows = Array(stride(from: 0, to: dataset.count, by: 10))
        self.rows = rows
        keys = rows.map { Int64($0 + 1) }
        views = rows.enumerated().map { dataset.views[$0.element] + 1 + Int64($0.offset % 97) }
        var expected = Totals(dataset, categoryCount: categoryCount)
        for (update, row) in rows.enumerated() {
            expected.sums[Int(dataset.categoryIDs[row] - 1)] += views[update] - dataset.views[row]
        }
        self.expected = expected
    }

    var count: Int { keys.count }

    /// The update of the article with key `key`, if it has one.
    private func update(key: Int64) -> Int? {
        let row = Int(key) - 1
        guard row >= 0, row.isMultiple(of: 10), row / 10 < views.count else { return nil }
        return row / 10
    }

    /// `ZVIEWS` of the article with key `key` once the updates are applied.
    func views(key: Int64, in dataset: ArticleDataset) -> SQLValue {
        update(key: key).map { .integer(views[$0]) } ?? dataset.value(.views, key: key)
    }

    /// `Z_OPT`: 1 as inserted, 2 once updated (the UPDATE bumps it).
    func version(key: Int64) -> SQLValue { .integer(update(key: key) == nil ? 1 : 2) }
}
