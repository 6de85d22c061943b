import Faultline
import FaultlineBench
import Foundation

// The Observing suite: what keeping live results current costs. A store of N
// items; 1, 10 or 100 fetched-results controllers over the visible ones, by
// group (the sections) and rank, in one context; another context saves a
// change to 1 or 100 items — a sort key, the predicate's key, a key nothing
// reads, inserts, deletes, moves between sections — and the clock measures
// the first context merging that save, every controller following.
//
// Each line is a ratio to `raw.requery`: the same query run again by hand,
// once per controller, through the SQLite C API — the floor of re-fetching
// after a change, before any difference is computed. Items are controllers,
// so per-item figures are per controller. Counters: statements executed and
// rows read per save (the in-memory path should read none), and the
// controllers' own (objects decided in memory, keyed queries, re-reads).
// Each iteration's verify step checks every controller against a fresh fetch.

let profile = SuiteProfile.commandLine
let rowCounts = profile.pick(quick: [10_000], standard: [10_000], full: [10_000, 100_000])
let controllerCounts = profile.pick(quick: [1, 10], standard: [1, 10, 100], full: [1, 10, 100])
let changeCounts = [1, 100]

var benchmarks: [Benchmark] = []
for rows in rowCounts {
    for controllers in controllerCounts {
        for changed in changeCounts {
            let parameters: KeyValuePairs<String, ParameterValue> = ["rows": .int(rows), "controllers": .int(controllers), "changed": .int(changed)]
            benchmarks.append(Benchmark(
                "raw.requery", parameters: parameters, items: controllers,
                setUp: { try RawRequery(rows: rows) },
                measure: { raw in blackHole(try raw.run(times: controllers)) },
                tearDown: { raw in raw.remove() }))
            for change in ChangeKind.allCases {
                let name = "observe." + change.rawValue
                benchmarks.append(Benchmark(
                    name, parameters: parameters, items: controllers, reference: "raw.requery",
                    setUp: { try ObservingFixture(rows: rows, controllers: controllers, change: change, changed: changed) },
                    measure: { fixture in fixture.merge() },
                    verify: { fixture in try fixture.verify(line: name) },
                    tearDown: { fixture in fixture.remove() },
                    counters: { fixture in fixture.controllerCounters }))
            }
        }
    }
}

let status = BenchmarkSuite("Observing", benchmarks: benchmarks).run(
    arguments: Array(CommandLine.arguments.dropFirst()), interactive: isatty(STDOUT_FILENO) != 0
) { text in
    FileHandle.standardOutput.write(Data(text.utf8))
}
exit(status)
