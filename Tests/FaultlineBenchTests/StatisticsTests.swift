import Testing
@testable import FaultlineBench

/// Summary statistics on samples whose answers are known by hand.
@Suite("Statistics")
struct StatisticsTests {
    @Test("One to ten: percentiles interpolate between ranks (type 7)")
    func oneToTen() {
        let statistics = Statistics((1...10).map(Double.init).shuffled())
        #expect(statistics.count == 10)
        #expect(statistics.min == 1)
        #expect(statistics.max == 10)
        #expect(statistics.median == 5.5)
        #expect(statistics.p25 == 3.25)
        #expect(statistics.p75 == 7.75)
        #expect(abs(statistics.p90 - 9.1) < 1e-12)
        #expect(abs(statistics.p99 - 9.91) < 1e-12)
        #expect(statistics.mean == 5.5)
        // Sample standard deviation of 1...10 is sqrt(55/6).
        #expect(abs(statistics.standardDeviation - (55.0 / 6).squareRoot()) < 1e-12)
        // |x - 5.5| = 0.5, 0.5, 1.5, 1.5, …, 4.5, 4.5 → median 2.5.
        #expect(statistics.medianAbsoluteDeviation == 2.5)
    }

    @Test("An outlier moves the mean but not the median or the MAD")
    func robustness() {
        let statistics = Statistics([10, 10, 11, 12, 1000])
        #expect(statistics.median == 11)
        #expect(statistics.medianAbsoluteDeviation == 1)
        #expect(statistics.mean == 208.6)
    }

    @Test("Edge sizes: no samples, one, two", arguments: [0, 1, 2])
    func edgeSizes(count: Int) {
        let samples = Array([4.0, 8.0].prefix(count))
        let statistics = Statistics(samples)
        #expect(statistics.count == count)
        switch count {
        case 0:
            #expect(statistics.median == 0 && statistics.standardDeviation == 0)
        case 1:
            #expect(statistics.min == 4 && statistics.median == 4 && statistics.p99 == 4 && statistics.standardDeviation == 0)
        default:
            #expect(statistics.median == 6)
            #expect(statistics.p25 == 5)
            #expect(abs(statistics.standardDeviation - 8.0.squareRoot()) < 1e-12)
            #expect(statistics.medianAbsoluteDeviation == 2)
        }
    }
}
