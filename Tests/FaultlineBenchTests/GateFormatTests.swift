import Foundation
import Testing
@testable import FaultlineBench

/// `gate --format markdown|json|github` write the same verdict for people,
/// bots and GitHub's annotations; exit 3 says "passed, counters improved:
/// refresh the baseline".
@Suite("Gate verdict formats and the improvement exit status")
struct GateFormatTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = GateCommand.run(arguments) { output += $0 }
        return (status, output)
    }

    /// A baseline, and a current run with one statement more per fault and
    /// the category index lost.
    private func regressed(_ extraArguments: [String]) throws -> (status: Int32, output: String) {
        let folder = try TemporaryFolder()
        let base = folder.path("base.json"), worse = folder.path("worse.json")
        try ReportFile.write(GateFixtures.report(GateFixtures.Run(seed: 1)), to: base)
        try ReportFile.write(GateFixtures.report(GateFixtures.Run(seed: 2, extraStatementsPerFault: 1, categoryPlan: "SCAN ZARTICLE")),
                             to: worse)
        return run([base, worse] + extraArguments)
    }

    @Test("Markdown: the verdict as a heading, each finding as a sentence, a table, notes folded")
    func markdown() throws {
        let (status, output) = try regressed(["--format", "markdown"])
        #expect(status == 1)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "### ❌ Test: gate FAILED: 2 regression(s) (1 counter, 1 plan) in 5 counter check(s), 2 time check(s), 1 plan check(s)")
        #expect(lines.contains("- **regression, counter** `fault.lazy rows=1000`: `statementsExecuted` 101 count → 201 count: "
                               + "deterministic counter grew by 100 count (+99.01%) per iteration; tolerance exact"))
        #expect(lines.contains("- **regression, plan** `fault.lazy rows=1000`: query plan 'byCategory': "
                               + "index ZARTICLE_ZCATEGORY_INDEX is no longer used; SEARCH ZARTICLE became SCAN ZARTICLE"))
        #expect(lines.contains("| | kind | benchmark | check | before | after |"))
        #expect(lines.contains("| ❌ | counter | `fault.lazy rows=1000` | statementsExecuted | 101 count | 201 count |"))
        #expect(!output.contains("gate: Test:"), "the text header belongs to the text format only")
    }

    @Test("JSON: verdict, exit status, checks by kind and each finding's fields")
    func json() throws {
        let (status, output) = try regressed(["--format", "json"])
        #expect(status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(object["suite"] as? String == "Test")
        #expect(object["verdict"] as? String == "fail")
        #expect(object["exitStatus"] as? Int == 1)
        #expect(object["checks"] as? [String: Int] == ["counter": 5, "time": 2, "plan": 1])
        let findings = try #require(object["regressions"] as? [[String: Any]])
        #expect(findings.map { $0["kind"] as? String } == ["counter", "plan"])
        #expect(findings.first?["before"] as? String == "101 count")
        #expect(findings.first?["advisory"] as? Bool == false)
    }

    @Test("GitHub: an ::error per failing finding with escaped title and message, ::warning when advisory")
    func github() throws {
        let (status, output) = try regressed(["--format", "github", "--advisory", "plan"])
        #expect(status == 1)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("::error title=Test counter%3A fault.lazy rows=1000::`statementsExecuted` 101 count") })
        #expect(lines.contains { $0.hasPrefix("::warning title=Test plan%3A fault.lazy rows=1000::query plan 'byCategory'") })
        #expect(lines.last?.hasPrefix("Test: gate FAILED: 1 regression(s) (1 counter)") == true)
        #expect(RegressionGate.data("50%\r\nx") == "50%25%0D%0Ax")
        #expect(RegressionGate.property("a: b, c") == "a%3A b%2C c")
    }

    @Test("Only improvements: exit 3, said in every format; a regression beside one still exits 1")
    func improvements() throws {
        let folder = try TemporaryFolder()
        let base = folder.path("base.json"), better = folder.path("better.json"), mixed = folder.path("mixed.json")
        try ReportFile.write(GateFixtures.report(GateFixtures.Run(seed: 1, extraStatementsPerFault: 1)), to: base)
        try ReportFile.write(GateFixtures.report(GateFixtures.Run(seed: 2)), to: better)
        try ReportFile.write(GateFixtures.report(GateFixtures.Run(seed: 2, categoryPlan: "SCAN ZARTICLE")), to: mixed)
        let text = run([base, better])
        #expect(text.status == 3)
        #expect(text.output.contains("note: fault.lazy rows=1000: counter statementsExecuted improved, 201 count -> 101 count"))
        #expect(text.output.contains("gate passed: no regression (5 counter check(s), 2 time check(s), 1 plan check(s)); "
                                     + "1 counter(s) improved: refresh the baseline"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run([base, better, "--format", "json"]).output.utf8))
                                as? [String: Any])
        #expect(json["verdict"] as? String == "improved")
        #expect((json["improvements"] as? [[String: Any]])?.first?["subject"] as? String == "statementsExecuted")
        #expect(run([base, better, "--format", "markdown"]).output.hasPrefix("### ⬆️ Test: gate passed"))
        #expect(run([base, better, "--format", "github"]).output.hasPrefix("::notice title=Test improved%3A fault.lazy rows=1000::"))
        #expect(run([base, mixed]).status == 1)
    }

    @Test("An unknown format is a usage error naming the choices")
    func unknownFormat() throws {
        let (status, output) = try regressed(["--format", "yaml"])
        #expect(status == 2)
        #expect(output.contains("yaml") && output.contains("markdown"))
    }
}
