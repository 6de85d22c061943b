import Faultline
import FaultlineBench
import Foundation

// The Migrations suite: what does a lightweight migration cost on a large
// store? Each line migrates a fresh copy of a V1 store of N `Sample` rows:
// `migrate.addColumn` to a V2 that adds an optional attribute (in place,
// `ALTER TABLE ADD COLUMN`), `migrate.rebuild` to a V2 that widens an int16
// attribute to double (a new column type: SQLite's table-rebuild procedure,
// every row copied).
// Both are reported as a ratio to `raw.copyTable`, plain SQL copying the same
// table (`INSERT INTO … SELECT`, drop, rename) in one transaction: the floor
// of any rebuild. Peak resident memory is measured per iteration. Every line
// verifies each iteration outside the clock: the row count and sampled rows
// column by column, in the target version's layout.

let rowCounts = SuiteProfile.commandLine.pick(quick: [10_000], standard: [10_000, 100_000], full: [10_000, 100_000, 1_000_000])
let templates = TemplateStores()

let v1: ModelVersion
var targets: [MigrationsModel.Change: ModelVersion] = [:]
do {
    v1 = try ModelVersion(MigrationsModel.v1(), label: "V1")
    for change in MigrationsModel.Change.allCases {
        targets[change] = try ModelVersion(MigrationsModel.v2(change), label: "V2 \(change.rawValue)")
    }
} catch {
    FileHandle.standardError.write(Data("error: the suite's models do not check: \(error)\n".utf8))
    exit(1)
}

var benchmarks: [Benchmark] = []
for rows in rowCounts {
    let parameters: KeyValuePairs<String, ParameterValue> = ["rows": .int(rows)]
    let reference = "raw.copyTable"
    benchmarks.append(Benchmark(
        reference, parameters: parameters, items: rows,
        setUp: { try RawCopyFixture(templates: templates, rows: rows) },
        measure: { fixture in try fixture.run() },
        verify: { fixture in try MigrationVerification.verify(fixture.fixture.url.path, rows: rows, change: nil) },
        tearDown: { fixture in fixture.fixture.remove() }))
    for change in MigrationsModel.Change.allCases {
        guard let target = targets[change] else { continue }
        benchmarks.append(Benchmark(
            "migrate.\(change.rawValue)", parameters: parameters, items: rows, reference: reference,
            setUp: { try MigrationFixture(templates: templates, rows: rows) },
            measure: { fixture in try fixture.migrate(to: target, from: v1) },
            verify: { fixture in try fixture.verifyMigrated(change, rows: rows) },
            tearDown: { fixture in fixture.remove() }))
    }
}

let status = BenchmarkSuite("Migrations", benchmarks: benchmarks).run(
    arguments: Array(CommandLine.arguments.dropFirst()), interactive: isatty(STDOUT_FILENO) != 0
) { text in
    FileHandle.standardOutput.write(Data(text.utf8))
}
templates.removeAll()
exit(status)
