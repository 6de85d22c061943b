import FaultlineCommandLine
import Foundation
import Testing
@testable import FaultlineBench

/// `noise --suggest` from too few A/A runs wrote minimum effects that switch
/// time gating off (2 runs: 2.93e+31; 3 runs: 6.12, at Student's t of 318 and
/// 22): it now refuses below `minimumRunsToSuggest` runs with exit 2, shows no
/// suggestion from so few, and warns about a suggestion the injected slowdown
/// would not exceed.
@Suite("noise --suggest refuses too few runs and warns about bounds that gate nothing")
struct NoiseSuggestionTests {
    typealias Run = GateFixtures.Run

    private func command(_ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = NoiseCommand.run(arguments) { output += $0 }
        return (status, output)
    }

    private func write(_ report: Report, _ folder: TemporaryFolder, _ name: String) throws -> String {
        let path = folder.path(name)
        try ReportFile.write(report, to: path)
        return path
    }

    @Test("Two, three or four runs with --suggest: exit 2 with one clear line, nothing written", arguments: [2, 3, 4])
    func tooFewRuns(count: Int) throws {
        let folder = try TemporaryFolder()
        let base = try write(GateFixtures.report(Run(seed: 100, samples: 12, paired: true)), folder, "base.json")
        let runs = try (1...count).map { try write(GateFixtures.report(Run(seed: UInt64($0), samples: 12, paired: true)), folder, "run-\($0).json") }
        let suggestPath = folder.path("suggested.json")
        let result = command([base] + runs + ["--suggest", suggestPath])
        #expect(result.status == 2, "\(result.output)")
        #expect(result.output.contains("--suggest needs at least 5 A/A runs, got \(count)"))
        #expect(!FileManager.default.fileExists(atPath: suggestPath))
        // Without --suggest the study still runs, but shows no suggestion from so few.
        let study = command([base] + runs)
        #expect(study.status == 0, "\(study.output)")
        #expect(study.output.contains("— (needs 5 runs)"))
    }

    @Test("A suggestion at or above the injected slowdown is warned about")
    func warnsAboveSlowdown() throws {
        let drifts = [1.0, 1.4, 0.7, 1.3, 0.75]
        let baseline = GateFixtures.report(Run(seed: 100, samples: 12, paired: true))
        let runs = drifts.enumerated().map {
            GateFixtures.report(Run(seed: UInt64($0.offset + 1), samples: 12, insertSlowdown: $0.element, paired: true))
        }
        let study = GateNoiseStudy(baseline: baseline, runs: runs, thresholds: GateThresholds(), slowdown: 0.3)
        let suggested = try #require(study.lines.first { $0.benchmark == "batch.insert rows=1000" }?.suggestedMinimumEffect)
        #expect(suggested >= 0.3 && suggested < 1e3, "\(suggested)")
        let output = NoiseCommand.render(study, suite: "Test", baseline: "base.json")
        #expect(output.contains("warning: batch.insert rows=1000: the suggested minimum effect"))
        #expect(output.contains("is not below the 30 % slowdown"))
    }
}
