// swift-tools-version:6.0
import Foundation
import PackageDescription

// FAULTLINE_NO_JEMALLOC=1 builds without jemalloc: the harness then reports no
// allocation counts. ThreadSanitizer needs it (it replaces malloc itself), as
// does measuring under glibc's malloc without LD_PRELOAD tricks.
let linksJemalloc = ProcessInfo.processInfo.environment["FAULTLINE_NO_JEMALLOC"] == nil

// Layers, bottom up (see README.md): system libraries, the SQLite boundary, the
// persistence core, the benchmark harness, the tool and the benchmark suites.
// The core's cold leaves are their own targets, so the compiler checks the layering:
//   FaultlineSupport     locks, digests, SplitMix64, canonical text; no dependencies.
//   FaultlineModel       Core Data's model, builders, checking; over FaultlineSupport.
//   FaultlineModelFiles  .xcdatamodeld files, compiled models and keyed archives; over the model, SQLite, zlib.
//   FaultlinePredicate   the predicate language: parser, tree, values, evaluator; over FaultlineSupport.
//   FaultlineSchema      the schema compiler: tables, indexes, triggers, SQL functions; over the
//                        predicates, the model, FaultlineSupport and SQLite.
//   Faultline            the core over all of them; re-exports them, so users import only it.
let package = Package(
    name: "Faultline",
    products: [
        .library(name: "Faultline", targets: ["Faultline"]),
        .library(name: "FaultlineSQLite", targets: ["FaultlineSQLite"]),
        .library(name: "FaultlineBench", targets: ["FaultlineBench"]),
        .executable(name: "faultline", targets: ["faultline"]),
        .executable(name: "faultline-bench", targets: ["faultline-bench"]),
        .plugin(name: "FaultlineModelPlugin", targets: ["FaultlineModelPlugin"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Only for inflating the model cache Core Data keeps in its stores.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        // The raw SQLite reference loops: the physical limit every suite is measured
        // against. Always optimised, so the reference is what a C programmer gets.
        .target(
            name: "CSQLiteReference",
            dependencies: ["CSQLite"],
            cSettings: [.unsafeFlags(["-O2"])]
        ),
        // A VFS shim that counts a directory's file operations and injects I/O faults.
        .target(name: "CSQLiteIO", dependencies: ["CSQLite"]),
        .target(name: "FaultlineSQLite", dependencies: ["CSQLite", "CSQLiteIO"]),
        // Valgrind's client requests, so a suite can count a line's instructions
        // (`--instructions`) under callgrind; no-ops without valgrind's headers.
        .target(name: "CCallgrind"),
        // Small shared pieces below everything else: locks, digests, canonical text.
        .target(name: "FaultlineSupport"),
        // Core Data's model: descriptions, builders, checking, validation, version hashes.
        .target(name: "FaultlineModel", dependencies: ["FaultlineSupport"]),
        // Xcode's model files and Core Data's compiled models (.mom, a store's model cache).
        .target(name: "FaultlineModelFiles", dependencies: ["FaultlineModel", "FaultlineSupport", "FaultlineSQLite", "CZlib"]),
        // Core Data's predicate language: lexer, parser, tree, values, the in-memory evaluator.
        .target(name: "FaultlinePredicate", dependencies: ["FaultlineSupport"]),
        // The schema compiler: a checked model in Core Data's SQLite layout (tables, indexes,
        // triggers), the SQL functions the triggers call and the record of a store's schema.
        .target(
            name: "FaultlineSchema",
            dependencies: ["FaultlinePredicate", "FaultlineModel", "FaultlineSupport", "FaultlineSQLite"]
        ),
        .target(
            name: "Faultline",
            dependencies: [
                "FaultlineSQLite", "FaultlineSupport", "FaultlineModel", "FaultlineModelFiles", "FaultlinePredicate",
                "FaultlineSchema",
            ]
        ),
        // What the tool's commands and the suites share on the command line:
        // help, values of flags, and how bad input is reported.
        .target(name: "FaultlineCommandLine"),
        .target(
            name: "FaultlineBench",
            dependencies: ["FaultlineSQLite", "FaultlineCommandLine", "CCallgrind"] + (linksJemalloc ? ["CJemalloc"] : []),
            swiftSettings: linksJemalloc ? [.define("FAULTLINE_JEMALLOC")] : []
        ),
        // The user tool's commands over the core (the harness never depends on the core).
        .target(name: "FaultlineTools", dependencies: ["Faultline", "FaultlineSQLite", "FaultlineCommandLine"]),
        .executableTarget(name: "faultline", dependencies: ["FaultlineBench", "FaultlineTools", "FaultlineCommandLine"]),
        .executableTarget(name: "faultline-bench", dependencies: ["FaultlineBench", "FaultlineTools", "FaultlineCommandLine"]),
        // Generates a target's typed classes from its model file at build time (`faultline model generate`).
        .plugin(
            name: "FaultlineModelPlugin", capability: .buildTool(), dependencies: ["faultline"],
            path: "Sources/FaultlineModelPlugin"),
        // Data sets and fixtures the suites share.
        .target(
            name: "BenchmarkData",
            dependencies: ["Faultline", "FaultlineSQLite", "FaultlineBench", "CSQLiteReference"],
            path: "Benchmarks/Shared"
        ),
        .executableTarget(
            name: "Reference",
            dependencies: ["FaultlineBench", "FaultlineSQLite", "CSQLiteReference", "BenchmarkData"],
            path: "Benchmarks/Reference"
        ),
        .executableTarget(
            name: "Inserts",
            dependencies: ["Faultline", "FaultlineBench", "FaultlineSQLite", "CSQLiteReference", "BenchmarkData"],
            path: "Benchmarks/Inserts"
        ),
        .executableTarget(
            name: "Fetching",
            dependencies: ["Faultline", "FaultlineBench", "FaultlineSQLite", "CSQLiteReference", "BenchmarkData"],
            path: "Benchmarks/Fetching"
        ),
        .executableTarget(
            name: "Derived",
            dependencies: ["Faultline", "FaultlineBench", "FaultlineSQLite", "CSQLiteReference", "BenchmarkData"],
            path: "Benchmarks/Derived"
        ),
        .executableTarget(
            name: "Migrations",
            dependencies: ["Faultline", "FaultlineBench", "FaultlineSQLite", "BenchmarkData"],
            path: "Benchmarks/Migrations"
        ),
        .executableTarget(
            name: "Observing",
            dependencies: ["Faultline", "FaultlineBench", "FaultlineSQLite", "CSQLiteReference", "BenchmarkData"],
            path: "Benchmarks/Observing"
        ),
        .executableTarget(
            name: "Faulting",
            dependencies: [
                "Faultline", "FaultlineBench", "FaultlineCommandLine", "FaultlineSQLite", "CSQLiteReference", "BenchmarkData",
            ],
            path: "Benchmarks/Faulting"
        ),
        // The fuzz targets' harnesses (Fuzz/Targets): what each feeds an input
        // to and what it calls a finding. The regression tests replay the kept
        // inputs through them; the libFuzzer entry points are below.
        .target(
            name: "FuzzTargets",
            dependencies: ["Faultline", "FaultlineModelFiles", "FaultlineBench", "FaultlineTools"],
            path: "Fuzz/Targets"
        ),
        // Where the tests find the real Core Data fixtures beside the project.
        .target(name: "FixtureSupport", path: "Tests/FixtureSupport"),
        .testTarget(name: "FaultlineSQLiteTests", dependencies: ["FaultlineSQLite"]),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets"], exclude: ["Inputs"]),
        .testTarget(name: "FaultlineBenchTests", dependencies: ["FaultlineBench", "FaultlineSQLite", "FaultlineCommandLine"]),
        .testTarget(
            name: "BenchmarkDataTests",
            dependencies: ["BenchmarkData", "Faultline", "FaultlineSQLite", "FaultlineBench", "FixtureSupport"]
        ),
        .testTarget(
            name: "FaultlineToolsTests", dependencies: ["FaultlineTools", "Faultline", "FaultlineCommandLine", "FixtureSupport"]),
        .testTarget(
            name: "FaultlineTests",
            dependencies: ["Faultline", "FaultlineSupport", "FaultlineModelFiles", "FixtureSupport"],
            exclude: ["Schema/Snapshots"]
        ),
    ]
)

// libFuzzer entry points, one executable per target, built only by
// `./tasks.sh fuzz` (FAULTLINE_FUZZ=1, `--sanitize=fuzzer`): without the
// fuzzer's runtime they have no `main` to link against.
if ProcessInfo.processInfo.environment["FAULTLINE_FUZZ"] != nil {
    for name in ["Predicate", "ModelFile", "CompiledModel", "StoreFile", "Report", "PropertyList"] {
        package.targets.append(.executableTarget(
            name: "Fuzz\(name)", dependencies: ["FuzzTargets"], path: "Fuzz/Entry/\(name)",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
}
