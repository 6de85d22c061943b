import BenchmarkData
import Faultline
import FaultlineBench
import Foundation

// The Inserts suite: batch or per-object? Every line inserts the same articles
// (title, body, views, created, category) into a fresh store whose Article has a
// canonical search column and whose Category a derived article count, and is
// reported as a ratio to the SQLite C API inserting the same rows into the same
// table, triggers included. The `noTriggers` lines use the same entity without
// derived attributes, so the cost of trigger maintenance is a line of its own.
// One save per object is compared with the C loop committing each row in a
// transaction of its own (`raw.insert.commitEach`: BEGIN IMMEDIATE, INSERT,
// COMMIT), the work a save cannot avoid. `raw.save.each` is the floor of Core
// Data's semantics for the same save, by hand: also the key reservation and the
// category's version bump (its to-many changed) in each transaction, reported
// against the same C loop, so the distance between it and one save per object
// is Faultline's own.
// `raw.insert.columnsOnly` is `raw.insert`'s loop into the same table, its
// derived columns and their indexes kept and its triggers dropped, against the
// plain loop: what the triggers' upkeep adds is its distance from `raw.insert`.
// `batch.dictionaryHandler` streams the rows one dictionary a call: it fires
// the triggers for its first 1,000 rows, then turns them off for the rest.
// The `.history` lines record persistent history (Core Data's ATRANSACTION and
// ACHANGE rows, one change per article) against the same references: the cost
// of history is their distance from the lines without it.
// Every line, the raw ones too, verifies each iteration outside the clock: the
// row counts, a sample of articles column by column, every category's name and
// (with triggers) derived count and each sampled article's canonical title;
// a history line also its change rows and transactions.

let rowCounts = SuiteProfile.commandLine.pick(
    quick: [1_000, 10_000], standard: [1_000, 10_000, 100_000], full: [1_000, 10_000, 100_000, 1_000_000])
/// Saving after every object costs a transaction each: capped.
let saveEachCap = 10_000

final class Datasets {
    private var cache: [Int: ArticleDataset] = [:]
    func rows(_ count: Int) -> ArticleDataset {
        if let dataset = cache[count] { return dataset }
        let dataset = ArticleDataset(count: count)
        cache[count] = dataset
        return dataset
    }
}
let datasets = Datasets()

/// How a batch line hands its rows over: typed handles (`.rows(count:)`), an
/// array of dictionaries (`objects:`), or one dictionary per call of Core
/// Data's streaming `dictionaryHandler`, whose count is not said ahead.
enum BatchForm { case typed, dictionaries, dictionaryHandler }

var benchmarks: [Benchmark] = []
for rows in rowCounts {
    for withTriggers in [true, false] {
        let suffix = withTriggers ? "" : ".noTriggers"
        let reference = "raw.insert" + suffix
        let commitEachReference = "raw.insert.commitEach" + suffix
        let parameters: KeyValuePairs<String, ParameterValue> = ["rows": .int(rows)]
        let saveEachFloor = "raw.save.each" + suffix
        let rawLines: [(String, RawInsertFixture.Commits, String?)] = [
            (reference, .once, nil), (commitEachReference, .eachRow, nil), (saveEachFloor, .eachSave, commitEachReference),
        ]
        for (name, commits, lineReference) in rawLines {
            if commits != .once, rows > saveEachCap { continue }
            benchmarks.append(Benchmark(
                name, parameters: parameters, items: rows, reference: lineReference,
                setUp: { () throws -> RawInsertFixture in
                    _ = datasets.rows(rows)
                    return try RawInsertFixture(withTriggers: withTriggers)
                },
                measure: { fixture in try fixture.run(datasets.rows(rows), commits: commits) },
                verify: { fixture in try fixture.fixture.verifyInserted(datasets.rows(rows), withTriggers: withTriggers) },
                tearDown: { fixture in fixture.fixture.remove() }))
        }
        // The floor under the triggers' upkeep: the C loop into the table with
        // the derived columns and their indexes (the canonical title computed
        // in the statement), its triggers dropped, against the plain loop.
        if !withTriggers {
            benchmarks.append(Benchmark(
                "raw.insert.columnsOnly", parameters: parameters, items: rows, reference: reference,
                setUp: { () throws -> RawInsertFixture in
                    _ = datasets.rows(rows)
                    return try RawInsertFixture(withTriggers: true, keepsTriggers: false)
                },
                measure: { fixture in try fixture.run(datasets.rows(rows), commits: .once) },
                verify: { fixture in
                    try fixture.fixture.verifyInserted(datasets.rows(rows), canonical: true, counted: false)
                },
                tearDown: { fixture in fixture.fixture.remove() }))
        }
        // History lines only without triggers: their distance from the plain
        // line is the cost of history, which triggers do not change.
        let histories = withTriggers ? [false] : [false, true]
        for (name, form) in [("batch.typed", BatchForm.typed), ("batch.dictionaries", .dictionaries),
                             ("batch.dictionaryHandler", .dictionaryHandler)] {
            let typed = form == .typed
            for history in histories where !history || typed {
                benchmarks.append(Benchmark(
                    name + suffix + (history ? ".history" : ""), parameters: parameters, items: rows, reference: reference,
                    setUp: { () throws -> InsertFixture in
                        _ = datasets.rows(rows)
                        return try InsertFixture(withTriggers: withTriggers, history: history)
                    },
                    measure: { fixture in
                        switch form {
                        case .typed: try fixture.insertTyped(datasets.rows(rows))
                        case .dictionaries: try fixture.insertDictionaries(datasets.rows(rows))
                        case .dictionaryHandler: try fixture.insertDictionaryHandler(datasets.rows(rows))
                        }
                    },
                    verify: { fixture in
                        try fixture.verifyInserted(datasets.rows(rows), withTriggers: withTriggers)
                        if history { try fixture.verifyHistory(datasets.rows(rows), transactions: 1) }
                    },
                    tearDown: { fixture in fixture.remove() }))
            }
        }
        for (name, saveEvery) in [("perObject.saveAtEnd", 0), ("perObject.saveEvery1000", 1_000), ("perObject.saveEach", 1)] {
            if saveEvery == 1, rows > saveEachCap { continue }
            for history in histories where !history || saveEvery != 1_000 {
                benchmarks.append(Benchmark(
                    name + suffix + (history ? ".history" : ""), parameters: parameters, items: rows,
                    // One save per object commits per object: measured against the C loop that does too.
                    reference: saveEvery == 1 ? commitEachReference : reference,
                    setUp: { () throws -> InsertFixture in
                        _ = datasets.rows(rows)
                        return try InsertFixture(withTriggers: withTriggers, history: history)
                    },
                    measure: { fixture in try fixture.insertPerObject(datasets.rows(rows), saveEvery: saveEvery) },
                    verify: { fixture in
                        try fixture.verifyInserted(datasets.rows(rows), withTriggers: withTriggers)
                        if history { try fixture.verifyHistory(datasets.rows(rows), transactions: saveEvery == 1 ? rows : 1) }
                    },
                    tearDown: { fixture in fixture.remove() }))
            }
        }
    }
}

let status = BenchmarkSuite("Inserts", benchmarks: benchmarks).run(
    arguments: Array(CommandLine.arguments.dropFirst()), interactive: isatty(STDOUT_FILENO) != 0
) { text in
    FileHandle.standardOutput.write(Data(text.utf8))
}
exit(status)
