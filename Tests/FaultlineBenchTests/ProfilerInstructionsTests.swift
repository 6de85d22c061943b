import Foundation
import Testing
@testable import FaultlineBench

/// `Faulting --instructions` with the profiler's own flags: the callgrind
/// child is started with them too, so it declares the same lines as the
/// parent. Without them it built the default graphs and `--filter '^profile
/// graph=20x5 …$'` matched nothing there.
@Suite("Faulting --instructions counts the lines the profiler flags declare",
       .enabled(if: InstructionCount.Counter.find("valgrind") != nil, "needs valgrind"))
struct ProfilerInstructionsTests {
    @Test("--graph and --touch reach the callgrind child: every line gets an instruction count")
    func profilerFlagsReachTheChild() throws {
        let executable = ExecutableHelpTests.folder.appendingPathComponent("Faulting").path
        try #require(FileManager.default.isExecutableFile(atPath: executable), "\(executable) is not built")
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("instructions-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }
        let result = try #require(ChildProcess.run(executable, [
            "--graph", "20x5", "--touch", "1", "--filter", "strategy=lazy", "--iterations", "1",
            "--instructions", "--quiet", "--json", json.path,
        ], mergingErrors: true))
        #expect(result.status == 0, "\(result.output)")
        let report = try ReportFile.read(json.path)
        #expect(report.benchmarks.map(\.id).sorted() == [
            "profile graph=20x5 keypaths=books order=random strategy=lazy touch=1.0",
            "profile graph=20x5 keypaths=books order=random strategy=raw touch=1.0",
        ])
        for line in report.benchmarks {
            #expect((line.median(Metric.instructions) ?? 0) > 0, "\(line.id) has no instruction count")
        }
    }
}
