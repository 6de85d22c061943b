import Testing
@testable import FaultlineBench

/// The Mann–Whitney U test gives the U statistics and two-sided p-values
/// computed by hand (and matching R's wilcox.test / SciPy's mannwhitneyu).
@Suite("Mann–Whitney U test")
struct MannWhitneyUTests {
    private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    @Test("Fully separated samples of 5: U = 0, exact p = 2/C(10,5) = 2/252")
    func separatedExact() throws {
        let test = try #require(MannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]))
        #expect(test.method == .exact)
        #expect(test.u1 == 0)
        #expect(test.u2 == 25)
        #expect(close(test.pValue, 2.0 / 252))
    }

    @Test("Interleaved samples of 3: U = 3, exact p = 2 · 7/20 = 0.7")
    func interleavedExact() throws {
        // U for n1 = n2 = 3 takes 0…9 with counts 1,1,2,3,3,3,3,2,1,1 (of 20);
        // P(U ≤ 3) = (1+1+2+3)/20.
        let test = try #require(MannWhitneyU([1, 3, 5], [2, 4, 6]))
        #expect(test.u1 == 3)
        #expect(close(test.pValue, 0.7))
    }

    @Test("Unequal sizes 8 and 9 without ties: exact p from the counted distribution")
    func unequalExact() throws {
        let test = try #require(MannWhitneyU(
            [1.1, 2.3, 0.7, 4.4, 3.3, 2.9, 5.0, 1.8], [3.6, 4.9, 6.1, 2.5, 5.7, 7.2, 6.6, 4.1, 5.2]))
        #expect(test.u1 == 9)
        #expect(close(test.pValue, 0.007897984368572603, 1e-12))
    }

    @Test("Normal approximation: separated samples of 5 give p = 0.012186")
    func separatedNormal() throws {
        // µ = 12.5, σ = √(25·11/12) = 4.7871; z = (|0 − 12.5| − 0.5)/σ = 2.5067.
        let test = try #require(MannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], exactLimit: 0))
        #expect(test.method == .normalApproximation)
        #expect(close(test.pValue, 0.012185780355344813, 1e-12))
    }

    @Test("Ties: average ranks and the tie-corrected variance, p = 0.13666")
    func ties() throws {
        // Pooled 1,2,2,2,3,3,4,5: ranks 1, 3,3,3, 5.5,5.5, 7, 8. R1 = 1+3+3+5.5 = 12.5,
        // U1 = 12.5 − 10 = 2.5. Ties: (3³−3)+(2³−2) = 30; σ² = 16/12 · (9 − 30/56) = 11.2857;
        // z = (5.5 − 0.5)/3.3594 = 1.4884; p = 2·Φ(−1.4884) = 0.13666.
        let test = try #require(MannWhitneyU([1, 2, 2, 3], [2, 3, 4, 5]))
        #expect(test.method == .normalApproximation)
        #expect(test.u1 == 2.5)
        #expect(close(test.pValue, 0.1366582477381475, 1e-12))
    }

    @Test("Identical samples: p = 1; empty samples: no test")
    func degenerate() throws {
        #expect(try #require(MannWhitneyU([2, 2, 2], [2, 2, 2])).pValue == 1)
        #expect(MannWhitneyU([], [1]) == nil)
    }

    @Test("Smallest reachable p: 2/C(n1+n2, n1)")
    func smallestPValue() {
        #expect(close(MannWhitneyU.smallestPValue(n1: 5, n2: 5), 2.0 / 252))
        #expect(close(MannWhitneyU.smallestPValue(n1: 3, n2: 3), 0.1))
        #expect(close(MannWhitneyU.smallestPValue(n1: 10, n2: 10), 2.0 / 184_756))
    }
}
