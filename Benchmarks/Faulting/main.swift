import BenchmarkData
import FaultlineBench
import FaultlineCommandLine
import Foundation

// The Faulting suite: the fault and prefetch profiler. For a generated object
// graph (parents, fan-out, depth) and an access pattern (fraction of parents
// touched, order, key paths), every strategy — lazy faults, batch faulting at
// 10/100/1,000, full objects, prefetch by key path, prefetch per batch of
// 100/1,000, a warm row cache — reads
// the same objects, side by side with the SQLite C API doing the same reads
// (`raw`, the reference). `--model` profiles a user's own model file instead,
// on a copy of their Core Data store or on synthetic data of its shape
// (UserModelData). See ProfilerArguments for the flags. Every line verifies
// each iteration outside the clock: on a generated graph its checksum (and the
// raw line's row count) must equal the same reads done by plain SQL.

// Help comes before the profiler's flags are checked and any graph is declared,
// and covers both sets of flags.
if CommandLineHelp.isRequested(CommandLine.arguments.dropFirst()) {
    FileHandle.standardOutput.write(Data((ProfilerArguments.usage + "\n" + RunOptions.usage + "\n").utf8))
    exit(0)
}

let profilerArguments: ProfilerArguments
do {
    profilerArguments = try ProfilerArguments(parsing: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n\(ProfilerArguments.usage)\n".utf8))
    exit(2)
}

let stores = StoreCache()
var userModel: UserModelData?
var benchmarks: [Benchmark] = []
do {
    for profile in profilerArguments.profiles {
        benchmarks += try ProfileBenchmarks.make(profile, stores: stores)
    }
    if let request = profilerArguments.modelProfile {
        let data = try UserModelData(request)
        userModel = data
        benchmarks += ProfileBenchmarks.make(request, data: data)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(2)
}

let reportPrefix = "report written to "
var reportPath: String?
let status = BenchmarkSuite("Faulting", benchmarks: benchmarks, suiteArguments: profilerArguments.own).run(
    arguments: profilerArguments.remaining, interactive: isatty(STDOUT_FILENO) != 0
) { text in
    for line in text.split(separator: "\n") where line.hasPrefix(reportPrefix) {
        reportPath = String(line.dropFirst(reportPrefix.count))
    }
    FileHandle.standardOutput.write(Data(text.utf8))
}
if status == 0, let reportPath, let report = try? ReportFile.read(reportPath) {
    for line in Cheapest.summary(of: report) + TouchSweep.summary(of: report) + InstructionSplit.summary(of: report) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
stores.removeAll()
userModel?.store.remove()
exit(status)
