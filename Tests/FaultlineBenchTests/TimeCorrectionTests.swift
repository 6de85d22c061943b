import Foundation
import Testing
@testable import FaultlineBench

/// Many time checks in one run: Holm's correction keeps noise from failing
/// one of them by chance, a real slowdown still fails, and a line whose own
/// ratios spread wide needs a larger effect than the configured minimum.
@Suite("Time checks corrected for how many are made")
struct TimeCorrectionTests {
    typealias Run = GateFixtures.Run

    private func gate(_ baseline: Run, _ current: Run, _ thresholds: GateThresholds = GateThresholds()) -> RegressionGate {
        RegressionGate(baseline: GateFixtures.report(baseline), current: GateFixtures.report(current), thresholds: thresholds)
    }

    @Test("20 A/A runs of 80 noisy lines each fail no time check; the same runs uncorrected would")
    func noiseAlone() {
        // 8 % noise a sample and a 5 % minimum effect: many lines' medians
        // differ by more than 5 %, and some of those by chance at p < 0.01.
        let thresholds = GateThresholds(alpha: 0.01, minimumEffect: 0.05)
        var findings = 0, uncorrected = 0
        for seed in UInt64(1)...20 {
            // Paired, as the suites time their lines: an unpaired run divides
            // every line by one noisy reference median, which moves them all.
            let result = gate(Run(seed: seed, noise: 0.08, paired: true, extraLines: 78),
                              Run(seed: seed + 1_000, noise: 0.08, paired: true, extraLines: 78), thresholds)
            #expect(result.checked[.time] == 80)
            findings += result.regressions.filter { $0.kind == .time }.count
            uncorrected += result.timeTests.filter { $0.pValue < $0.alpha && $0.effect > $0.minimumEffect }.count
        }
        #expect(findings == 0)
        #expect(uncorrected > 0, "the runs are too quiet to show what the correction prevents")
    }

    @Test("A 30 % slower line among 80 is caught in each of 20 runs", arguments: [false, true])
    func slowdownCaught(paired: Bool) {
        for seed in UInt64(1)...20 {
            let result = gate(Run(seed: seed, paired: paired, extraLines: 78),
                              Run(seed: seed + 1_000, insertSlowdown: 1.3, paired: paired, extraLines: 78))
            #expect(result.regressions.map(\.benchmark) == ["batch.insert rows=1000"], "\(result.render())")
            #expect(result.regressions.first?.reason.contains("Holm-corrected alpha") == true)
        }
    }

    @Test("Too few samples for the corrected alpha is noted as such, not failed")
    func tooFewForCorrection() {
        // 5 against 5: the smallest p (0.0079) is under alpha, not under alpha / 80.
        let result = gate(Run(seed: 1, samples: 5, extraLines: 78), Run(seed: 2, samples: 5, insertSlowdown: 1.5, extraLines: 78))
        #expect(result.passed)
        #expect(result.notes.contains { $0.hasPrefix("batch.insert rows=1000") && $0.contains("corrected alpha") })
        // Checks that could only pass are not counted as checks.
        #expect(result.checked[.time] == 0)
        #expect(result.untestedTimes == 80)
        #expect(result.verdict.contains("0 time check(s), 1 plan check(s), 80 time comparison(s) with too few samples to fail"))
    }

    @Test("A line whose baseline ratios spread by 40 % needs more than a 20 % slowdown to fail")
    func ownSpread() throws {
        let noisy = gate(Run(seed: 1, samples: 20, noise: 0.3), Run(seed: 2, samples: 20, noise: 0.3, insertSlowdown: 1.2))
        let test = try #require(noisy.timeTests.first { $0.benchmark == "batch.insert rows=1000" })
        #expect(test.minimumEffect > test.configuredMinimumEffect)
        #expect(noisy.regressions.isEmpty, "\(noisy.render())")
        let quiet = gate(Run(seed: 1, samples: 20), Run(seed: 2, samples: 20, insertSlowdown: 1.2))
        #expect(quiet.regressions.map(\.benchmark) == ["batch.insert rows=1000"])
    }
}
