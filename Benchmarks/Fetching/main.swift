import BenchmarkData
import FaultlineBench
import Foundation

// The Fetching suite: what does reading cost, and how close to raw SQLite is
// it? For 1,000 / 10,000 / 100,000 articles (and 1,000,000 with
// --profile full): fetching as faults (then touching one attribute), as full
// objects with every attribute read, as dictionaries, as object IDs, and
// `count`; one object by key, cold, for 10,000 random keys; the same rows as plain Swift structs (the floor under full
// objects); a canonical search (`CONTAINS[cd]`, `BEGINSWITH[cd]` on a
// `canonical:` column) against a `lower()`/`LIKE` scan; sorting with and
// without an index; reading the persistent history a store recorded (every
// change of `rows` inserts and a tenth as many updates); and prefetching 1,000
// authors × 100 books, and the same books grouped by author with SUM, COUNT
// and MAX per group (a grouped dictionary fetch, and the objects summed in
// Swift). Every line is a
// ratio to the SQLite C API doing the same reads in the same run; search and
// sort lines record their query plans for the regression gate.
// Every line verifies each iteration outside the clock: its count or checksum
// must equal the same aggregate over the store read by plain SQL (and the
// store is checked against the data set once, when built).

let rowCounts = SuiteProfile.commandLine.pick(
    quick: [1_000, 10_000], standard: [1_000, 10_000, 100_000], full: [1_000, 10_000, 100_000, 1_000_000])

let stores = ArticleStores()
let historyStores = HistoryStores()
let prefetch = PrefetchBenchmarks(before: { stores.removeAll(); historyStores.removeAll() })
var benchmarks: [Benchmark] = []
do {
    for rows in rowCounts {
        benchmarks += FetchBenchmarks.make(rows: rows, stores: stores)
        benchmarks += LookupBenchmarks.make(rows: rows, stores: stores)
        benchmarks += SearchBenchmarks.make(rows: rows, stores: stores)
        benchmarks += SortBenchmarks.make(rows: rows, stores: stores)
        benchmarks += HistoryBenchmarks.make(rows: rows, stores: historyStores)
    }
    let graph = try GraphShape(parents: 1_000, fanOuts: [100])
    benchmarks += try prefetch.make(shape: graph)
    benchmarks += GroupedBenchmarks.make(shape: graph) { try prefetch.graphStore(graph) }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(2)
}

let status = BenchmarkSuite("Fetching", benchmarks: benchmarks).run(
    arguments: Array(CommandLine.arguments.dropFirst()), interactive: isatty(STDOUT_FILENO) != 0
) { text in
    FileHandle.standardOutput.write(Data(text.utf8))
}
prefetch.remove()
stores.removeAll()
exit(status)
