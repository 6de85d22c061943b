import Foundation
import Testing
@testable import FaultlineBench

/// Hand-made reports for the report, comparison and table tests.
enum Fixtures {
    static func metadata() -> RunMetadata {
        RunMetadata(
            timestamp: "2026-01-01T00:00:00Z", gitCommit: "abc", gitDirty: false, cpuModel: "test CPU",
            coreCount: 2, memoryBytes: 1 << 30, kernel: "Linux", operatingSystem: "Debian",
            swiftVersion: "6.3", sqliteVersion: "3.40.1", jemallocVersion: "5.3.0",
            buildConfiguration: "release", peakMemoryIsPerIteration: true, arguments: [])
    }

    /// One benchmark per entry, whose wall-time samples centre on the median given.
    static func report(medians: [String: Double], extra: [String: Double] = [:]) -> Report {
        let benchmarks = medians.keys.sorted().map { id -> BenchmarkResult in
            let parts = id.split(separator: " ")
            var parameters: [String: ParameterValue] = [:]
            for part in parts.dropFirst() {
                let pair = part.split(separator: "=")
                if pair.count == 2, let value = Int(pair[1]) { parameters[String(pair[0])] = .int(value) }
            }
            let median = medians[id] ?? 0
            var metrics = [
                Metric.wallTime: MetricResult(unit: "ns", direction: .lowerIsBetter,
                                              samples: [median * 0.99, median, median * 1.01]),
                Metric.throughput: MetricResult(unit: "items/s", direction: .higherIsBetter,
                                                samples: [1e9 / median]),
            ]
            if let mallocs = extra[id] {
                metrics[Metric.mallocs] = MetricResult(unit: "count", direction: .lowerIsBetter, samples: [mallocs])
            }
            return BenchmarkResult(
                id: id, suite: "Test", name: String(parts[0]), parameters: parameters, items: 1,
                warmupIterations: 0, iterations: 3, reference: nil, metrics: metrics, comparison: nil)
        }
        return Report(suite: "Test", metadata: metadata(), benchmarks: benchmarks)
    }
}

/// A folder under the system's temporary directory, removed on deinit.
final class TemporaryFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bench-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Refused as bad input: exit 2, and one line `error: …`, the first, naming `fragment`.
func expectRefused(_ result: (status: Int32, output: String), naming fragment: String,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    let errors = result.output.split(separator: "\n").filter { $0.hasPrefix("error: ") }
    #expect(result.status == 2, "\(result.output)", sourceLocation: sourceLocation)
    #expect(errors.count == 1 && result.output.hasPrefix("error: "), "\(result.output)", sourceLocation: sourceLocation)
    #expect(errors.first?.contains(fragment) == true, "wanted '\(fragment)' in: \(result.output)", sourceLocation: sourceLocation)
}
