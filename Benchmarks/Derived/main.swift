import BenchmarkData
import Faultline
import FaultlineBench
import Foundation

// The Derived suite: what does keeping a per-category count and sum cost, and
// who should pay it? Three strategies for Category.articleCount/totalViews —
// derived attributes maintained by the store's triggers, plain attributes the
// app computes in Swift and saves, or nothing stored and a COUNT/SUM … GROUP BY
// read when needed — on an insert-heavy workload (N articles into 100
// categories, typed batch insert for every strategy) and an update-heavy one
// (new views for every tenth of N existing articles, one prepared UPDATE per
// row in one transaction). Plus the cost of a canonical search column on insert.
//
// Every line is a ratio to the raw C loop doing the same writes (the insert:
// `fl_ref_insert_keyed`; the update: bind/step/reset) on the same tables with
// no derived attributes and no canonical column. The on-read lines include the
// one GROUP BY read in the measured part. Each iteration's verify step (outside
// the clock) checks that the strategy's per-category counts and sums, and the
// table's own aggregates, equal what Swift computes from the dataset, and that
// sampled articles hold their own values column by column (views and version as
// the updates left them, the canonical title where there is one).

let rowCounts = SuiteProfile.commandLine.pick(quick: [10_000], standard: [10_000, 100_000], full: [10_000, 100_000, 1_000_000])

final class Workloads {
    private var datasets: [Int: ArticleDataset] = [:]
    private var updateSets: [Int: ViewUpdates] = [:]
    private var totalSets: [Int: Totals] = [:]

    func dataset(_ rows: Int) -> ArticleDataset {
        if let dataset = datasets[rows] { return dataset }
        let dataset = ArticleDataset(count: rows)
        datasets[rows] = dataset
        return dataset
    }

    func totals(_ rows: Int) -> Totals {
        if let totals = totalSets[rows] { return totals }
        let totals = Totals(dataset(rows), categoryCount: DerivedModel.categoryCount)
        totalSets[rows] = totals
        return totals
    }

    func updates(_ rows: Int) -> ViewUpdates {
        if let updates = updateSets[rows] { return updates }
        let updates = ViewUpdates(dataset(rows), categoryCount: DerivedModel.categoryCount)
        updateSets[rows] = updates
        return updates
    }
}
let workloads = Workloads()

/// One iteration: the store, and what an on-read line read in the measured part.
struct Run {
    let fixture: DerivedFixture
    var read: Totals?
}

var benchmarks: [Benchmark] = []
for rows in rowCounts {
    benchmarks += insertBenchmarks(rows: rows, workloads)
    benchmarks += canonicalBenchmarks(rows: rows, workloads)
    benchmarks += updateBenchmarks(rows: rows, workloads)
}

let status = BenchmarkSuite("Derived", benchmarks: benchmarks).run(
    arguments: Array(CommandLine.arguments.dropFirst()), interactive: isatty(STDOUT_FILENO) != 0
) { text in
    FileHandle.standardOutput.write(Data(text.utf8))
}
exit(status)
