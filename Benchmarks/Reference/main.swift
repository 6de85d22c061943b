import BenchmarkData
import FaultlineBench
import FaultlineSQLite
import Foundation

// The Reference suite: the physical limit. Each workload runs as the SQLite C
// API driven by hand (raw.*) and through FaultlineSQLite's cached statements
// (wrapped.*), so the wrapper's cost is the ratio between the two lines.
// Every line verifies each iteration outside the clock: inserts read `article`
// back (row count, sampled rows column by column), reads compare their
// checksum with the same rows read by plain SQL.

let rowCounts = SuiteProfile.commandLine.pick(quick: [1_000, 10_000], standard: [1_000, 10_000, 100_000], full: [1_000, 10_000, 100_000])
/// One transaction per row costs a WAL commit each: at most this many rows
/// are inserted that way per iteration.
let autocommitRowCap = 10_000
let lookupCount = 10_000

let scratch: ScratchFiles
do { scratch = try ScratchFiles() } catch {
    FileHandle.standardError.write(Data("error: cannot create a scratch folder: \(error)\n".utf8))
    exit(2)
}

/// Built on first use only, so filtered-out sizes cost nothing.
final class Fixtures {
    let scratch: ScratchFiles
    init(scratch: ScratchFiles) { self.scratch = scratch }

    private var datasets: [Int: ArticleDataset] = [:]
    private var populated: [Int: String] = [:]

    func dataset(_ rows: Int) -> ArticleDataset {
        if let dataset = datasets[rows] { return dataset }
        let dataset = ArticleDataset(count: rows)
        datasets[rows] = dataset
        return dataset
    }

    /// A database file holding `rows` articles, shared by every read workload.
    func populatedDatabase(_ rows: Int) throws -> String {
        if let path = populated[rows] { return path }
        let path = scratch.newDatabasePath("populated-\(rows)")
        try RawInsertState(path: path).run(dataset(rows), oneTransaction: true)
        // Every read line compares with this file; it must hold the data set.
        try ReferenceVerification.inserted(dataset(rows), at: path)
        populated[rows] = path
        return path
    }
}
let fixtures = Fixtures(scratch: scratch)

var benchmarks: [Benchmark] = []

for rows in rowCounts {
    let parameters: KeyValuePairs<String, ParameterValue> = ["rows": .int(rows)]

    benchmarks.append(Benchmark(
        "raw.insert.txn", parameters: parameters, items: rows,
        setUp: { () throws -> RawInsertState in
            _ = fixtures.dataset(rows)
            return try RawInsertState(path: scratch.newDatabasePath("raw-insert"))
        },
        measure: { state in try state.run(fixtures.dataset(rows), oneTransaction: true) },
        verify: { state in try ReferenceVerification.inserted(fixtures.dataset(rows), at: state.database.path) },
        tearDown: { state in scratch.remove(state.database.path) }))
    benchmarks.append(Benchmark(
        "wrapped.insert.txn", parameters: parameters, items: rows, reference: "raw.insert.txn",
        setUp: { () throws -> (Connection, String) in
            let path = scratch.newDatabasePath("wrapped-insert")
            _ = fixtures.dataset(rows)
            return (try WrappedWorkloads.openFresh(path), path)
        },
        measure: { state in
            try state.0.transaction { try WrappedWorkloads.insert(fixtures.dataset(rows), into: state.0) }
        },
        verify: { state in try ReferenceVerification.inserted(fixtures.dataset(rows), at: state.1) },
        tearDown: { state in scratch.remove(state.1) }))

    // One commit per row: only the last `autocommitRowCap` rows are inserted
    // that way (measured); the rows before them are loaded in one transaction
    // during set-up, so the table still reaches `rows`.
    let measured = max(0, rows - autocommitRowCap)..<rows
    let preloaded = 0..<measured.lowerBound
    let autocommitParameters: KeyValuePairs<String, ParameterValue> =
        ["rows": .int(rows), "committedRows": .int(measured.count)]
    benchmarks.append(Benchmark(
        "raw.insert.autocommit", parameters: autocommitParameters, items: measured.count,
        setUp: { () throws -> RawInsertState in
            let state = try RawInsertState(path: scratch.newDatabasePath("raw-autocommit"))
            if !preloaded.isEmpty { try state.run(fixtures.dataset(rows), rows: preloaded, oneTransaction: true) }
            return state
        },
        measure: { state in try state.run(fixtures.dataset(rows), rows: measured, oneTransaction: false) },
        verify: { state in try ReferenceVerification.inserted(fixtures.dataset(rows), at: state.database.path) },
        tearDown: { state in scratch.remove(state.database.path) }))
    benchmarks.append(Benchmark(
        "wrapped.insert.autocommit", parameters: autocommitParameters, items: measured.count,
        reference: "raw.insert.autocommit",
        setUp: { () throws -> (Connection, String) in
            let path = scratch.newDatabasePath("wrapped-autocommit")
            let connection = try WrappedWorkloads.openFresh(path)
            if !preloaded.isEmpty {
                try connection.transaction {
                    try WrappedWorkloads.insert(fixtures.dataset(rows), rows: preloaded, into: connection)
                }
            }
            return (connection, path)
        },
        measure: { state in try WrappedWorkloads.insert(fixtures.dataset(rows), rows: measured, into: state.0) },
        verify: { state in try ReferenceVerification.inserted(fixtures.dataset(rows), at: state.1) },
        tearDown: { state in scratch.remove(state.1) }))

    benchmarks.append(Benchmark(
        "raw.fetch", parameters: parameters, items: rows,
        setUp: { ReadRun(try RawReadState(path: fixtures.populatedDatabase(rows), sql: ArticleSQL.selectAll)) },
        measure: { run in run.result = try run.reader.readAll() },
        verify: { run in try ReferenceVerification.fetched(run.measured(), raw: true, at: fixtures.populatedDatabase(rows)) }))
    benchmarks.append(Benchmark(
        "wrapped.fetch", parameters: parameters, items: rows, reference: "raw.fetch",
        setUp: { () throws -> ReadRun<(Connection, Statement)> in
            let connection = try Connection(.file(fixtures.populatedDatabase(rows)))
            return ReadRun((connection, try connection.cachedStatement(ArticleSQL.selectAll)))
        },
        measure: { run in run.result = try WrappedWorkloads.readAll(run.reader.1) },
        verify: { run in try ReferenceVerification.fetched(run.measured(), raw: false, at: fixtures.populatedDatabase(rows)) }))

    benchmarks.append(Benchmark(
        "raw.lookup", parameters: parameters, items: lookupCount,
        setUp: { () throws -> ReadRun<(RawReadState, [Int64])> in
            ReadRun((try RawReadState(path: fixtures.populatedDatabase(rows), sql: ArticleSQL.selectByID),
                     ArticleDataset.lookupKeys(count: lookupCount, rows: rows)))
        },
        measure: { run in run.result = try run.reader.0.lookUp(run.reader.1) },
        verify: { run in
            try ReferenceVerification.lookedUp(run.measured(), keys: run.reader.1, raw: true, at: fixtures.populatedDatabase(rows))
        }))
    benchmarks.append(Benchmark(
        "wrapped.lookup", parameters: parameters, items: lookupCount, reference: "raw.lookup",
        setUp: { () throws -> ReadRun<(Connection, Statement, [Int64])> in
            let connection = try Connection(.file(fixtures.populatedDatabase(rows)))
            return ReadRun((connection, try connection.cachedStatement(ArticleSQL.selectByID),
                            ArticleDataset.lookupKeys(count: lookupCount, rows: rows)))
        },
        measure: { run in run.result = try WrappedWorkloads.lookUp(run.reader.2, with: run.reader.1) },
        verify: { run in
            try ReferenceVerification.lookedUp(run.measured(), keys: run.reader.2, raw: false, at: fixtures.populatedDatabase(rows))
        }))
}

let suite = BenchmarkSuite("Reference", benchmarks: benchmarks)
let status = suite.run(arguments: Array(CommandLine.arguments.dropFirst()),
                       interactive: isatty(STDOUT_FILENO) != 0) { text in
    FileHandle.standardOutput.write(Data(text.utf8))
}
scratch.removeAll()
exit(status)
