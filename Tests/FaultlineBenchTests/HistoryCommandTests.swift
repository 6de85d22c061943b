import Foundation
import Testing
@testable import FaultlineBench

/// `faultline-bench history SUITE` reads the committed baselines along
/// `git log`, prints each line's ratio then and now and the commits where a
/// counter moved beyond its tolerance, and charts them with `--html`.
@Suite("Baseline history along git log")
struct HistoryCommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = HistoryCommand.run(arguments) { output += $0 }
        return (status, output)
    }

    private func git(_ arguments: [String], in folder: TemporaryFolder) throws {
        _ = try BaselineHistory.git(["-c", "user.name=Faultline", "-c", "user.email=ci@faultline.invalid"] + arguments,
                                    in: folder.url.path)
    }

    /// A repository whose Test baseline was committed three times: as is, with
    /// one statement more per fault, then with a noisy allocation count only.
    private func repository() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try git(["init", "-q"], in: folder)
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Results"), withIntermediateDirectories: true)
        let runs = [GateFixtures.Run(seed: 1), GateFixtures.Run(seed: 2, extraStatementsPerFault: 1),
                    GateFixtures.Run(seed: 3, extraStatementsPerFault: 1, mallocNoise: 0.001)]
        for (index, run) in runs.enumerated() {
            try ReportFile.write(GateFixtures.report(run), to: folder.path("Results/baseline-Test.json"))
            try git(["add", "Results"], in: folder)
            try git(["commit", "-q", "-m", "Baseline \(index + 1)"], in: folder)
        }
        return folder
    }

    @Test("Ratios first and last, and each counter step beyond its tolerance with the commit that made it")
    func text() throws {
        let folder = try repository()
        let (status, output) = run(["Test", "--repository", folder.url.path])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Test: 3 baseline(s), ") == true)
        #expect(lines.contains { $0.hasPrefix("batch.insert rows=1000: ratio 2.") })
        let steps = lines.filter { $0.hasPrefix("    ") }
        #expect(steps.count == 1, "the allocation noise is within its tolerance: \(steps)")
        #expect(steps.first?.hasPrefix("    statementsExecuted 101 → 201 at ") == true)
        #expect(steps.first?.hasSuffix("(Baseline 2)") == true)
    }

    @Test("--html charts each line's ratio and counters over the newest --limit commits")
    func html() throws {
        let folder = try repository()
        let page = folder.path("history.html")
        let (status, output) = run(["Test", "--repository", folder.url.path, "--html", page, "--limit", "2"])
        #expect(status == 0, "\(output)")
        let text = try String(contentsOfFile: page, encoding: .utf8)
        #expect(text.contains("<h1>Test: baselines over 2 commit(s)</h1>"))
        #expect(text.contains("<h2>fault.lazy rows=1000</h2>"))
        #expect(text.components(separatedBy: "<svg").count - 1 >= 4)
        #expect(text.contains("<polyline"))
        // The two newest commits: the statement step came before them.
        #expect(!text.contains("statementsExecuted 101 → 201"))
    }

    @Test("report --html --history puts each suite's baseline history inside its section; a suite without baselines says so")
    func inMainReport() throws {
        let folder = try repository()
        let current = folder.path("current.json")
        try ReportFile.write(GateFixtures.report(GateFixtures.Run(seed: 4)), to: current)
        var other = GateFixtures.report(GateFixtures.Run(seed: 5))
        other.suite = "Unbaselined"
        let unbaselined = folder.path("other.json")
        try ReportFile.write(other, to: unbaselined)
        let page = folder.path("report.html")
        var output = ""
        let status = ReportCommand.run(["--html", page, "--history", folder.url.path, current, unbaselined]) { output += $0 }
        #expect(status == 0, "\(output)")
        let text = try String(contentsOfFile: page, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "<section").dropFirst().first { $0.contains("<h2>Test</h2>") })
        #expect(section.contains("<summary>Committed baselines over 3 commit(s)</summary>"))
        #expect(section.contains("<h4>fault.lazy rows=1000</h4>") && section.contains("<polyline"))
        #expect(section.contains("statementsExecuted 101 → 201"))
        #expect(text.contains("No committed baselines of Unbaselined to chart."))
        output = ""
        #expect(ReportCommand.run(["--history", folder.url.path, current]) { output += $0 } == 2)
        #expect(output.hasPrefix("error: --history charts into the HTML report"))
        let notGit = try TemporaryFolder()
        output = ""
        #expect(ReportCommand.run(["--html", page, "--history", notGit.url.path, current]) { output += $0 } == 2)
        #expect(output.contains("git"), "\(output)")
    }

    @Test("No such baselines, no git checkout, or no suite: exit 2 with the reason")
    func badInput() throws {
        let folder = try repository()
        let missing = run(["Nowhere", "--repository", folder.url.path])
        #expect(missing.status == 2 && missing.output.contains("Results/baseline-Nowhere.json"), "\(missing.output)")
        let notGit = try TemporaryFolder()
        let outside = run(["Test", "--repository", notGit.url.path])
        #expect(outside.status == 2 && outside.output.contains("git"), "\(outside.output)")
        #expect(run([]).status == 2)
        #expect(run(["Test", "--limit", "0"]).status == 2)
    }
}
