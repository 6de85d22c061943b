import Foundation
import Testing
@testable import FaultlineBench

/// Reports survive a JSON round trip, and bad files are refused by name.
@Suite("Report files")
struct ReportFileTests {
    @Test("A report written and read back is the same report")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        let report = Fixtures.report(medians: ["a rows=1": 100, "b rows=1": 200])
        let path = folder.path("report.json")
        try ReportFile.write(report, to: path)
        let read = try ReportFile.read(path)
        #expect(read.schemaVersion == Report.currentSchemaVersion)
        #expect(read.suite == report.suite)
        #expect(read.metadata.timestamp == report.metadata.timestamp)
        #expect(read.benchmarks.map(\.id) == report.benchmarks.map(\.id))
        #expect(read.benchmarks[0].parameters == ["rows": .int(1)])
        let metric = try #require(read.benchmarks[0].metrics[Metric.wallTime])
        #expect(metric.samples == report.benchmarks[0].metrics[Metric.wallTime]?.samples)
        #expect(metric.statistics == report.benchmarks[0].metrics[Metric.wallTime]?.statistics)
        #expect(metric.direction == .lowerIsBetter)
        #expect(metric.unit == "ns")
    }

    @Test("A report naming one benchmark id twice is refused as malformed, naming the id (found by the report fuzz target)")
    func duplicateIDs() throws {
        var report = Fixtures.report(medians: ["a rows=1": 100, "b rows=1": 200])
        report.benchmarks.append(report.benchmarks[0])
        let data = try JSONEncoder().encode(report)
        #expect {
            try ReportFile.parse(data, path: "twice.json")
        } throws: { error in
            guard case .malformed(let path, let reason)? = error as? ReportFileError else { return false }
            return path == "twice.json" && reason == "benchmark id 'a rows=1' appears twice"
        }
    }

    @Test("A buildConfiguration other than release or debug is refused by report, compare, gate and export with exit 2")
    func unknownBuildConfiguration() throws {
        let folder = try TemporaryFolder()
        let good = folder.path("good.json")
        try ReportFile.write(Fixtures.report(medians: ["a": 100]), to: good)
        var bogus = Fixtures.report(medians: ["a": 100])
        bogus.metadata.buildConfiguration = "bogus"
        let path = folder.path("bogus.json")
        try ReportFile.write(bogus, to: path)
        let commands: [(String, ([String], (String) -> Void) -> Int32, [String])] = [
            ("report", ReportCommand.run, [path]),
            ("compare", CompareCommand.run, [good, path]),
            ("gate", GateCommand.run, [good, path]),
            ("export", ExportCommand.run, ["--format", "google-benchmark", path, "--output", folder.path("out.json")]),
        ]
        for (name, command, arguments) in commands {
            var output = ""
            let status = command(arguments) { output += $0 }
            #expect(status == 2, "\(name): \(output)")
            #expect(output.hasPrefix("error: \(path): not a Faultline report: metadata.buildConfiguration is 'bogus', not release or debug"),
                    "\(name): \(output)")
        }
    }

    @Test("A negative sample, statistics that are not the samples', no sample, or a relabelled direction or unit is refused by the gate with exit 2",
          arguments: ["negative", "statistics", "empty", "direction", "unit"])
    func metricsChecked(_ defect: String) throws {
        let folder = try TemporaryFolder()
        let good = folder.path("good.json")
        try ReportFile.write(Fixtures.report(medians: ["a": 100]), to: good)
        var bad = Fixtures.report(medians: ["a": 100])
        var metric = try #require(bad.benchmarks[0].metrics[Metric.wallTime])
        switch defect {
        case "negative": metric = MetricResult(unit: metric.unit, direction: metric.direction, samples: metric.samples.map { -$0 })
        case "empty": metric = MetricResult(unit: metric.unit, direction: metric.direction, samples: [])
        case "direction": metric = MetricResult(unit: metric.unit, direction: .higherIsBetter, samples: metric.samples.map { $0 * 2 })
        case "unit": metric = MetricResult(unit: "ms", direction: metric.direction, samples: metric.samples)
        default: metric.samples = metric.samples.map { $0 * 2 }
        }
        bad.benchmarks[0].metrics[Metric.wallTime] = metric
        let path = folder.path("bad.json")
        try ReportFile.write(bad, to: path)
        var output = ""
        let status = GateCommand.run([good, path]) { output += $0 }
        #expect(status == 2, "\(output)")
        let expected = switch defect {
        case "negative": "metric wallTime has the sample -"
        case "empty": "metric wallTime has no sample"
        case "direction": "metric wallTime is in ns, higherIsBetter; it is measured in ns, lowerIsBetter"
        case "unit": "metric wallTime is in ms, lowerIsBetter; it is measured in ns, lowerIsBetter"
        default: "the statistics of metric wallTime are not those of its"
        }
        #expect(output.hasPrefix("error: \(path): not a Faultline report: benchmark 'a': "), "\(output)")
        #expect(output.contains(expected), "\(output)")
    }

    @Test("Writing leaves no temporary file behind")
    func atomicWrite() throws {
        let folder = try TemporaryFolder()
        try ReportFile.write(Fixtures.report(medians: ["a": 1]), to: folder.path("r.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["r.json"])
    }

    @Test("Writing through a symbolic link replaces its target and keeps the link; a pipe is written to, not replaced")
    func linksAndPipes() throws {
        let folder = try TemporaryFolder()
        let target = folder.path("target.json")
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let link = folder.path("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let report = Fixtures.report(medians: ["a": 1])
        try ReportFile.write(report, to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try ReportFile.read(target).benchmarks.map(\.id) == ["a"])

        let pipe = folder.path("pipe")
        #expect(mkfifo(pipe, 0o600) == 0)
        final class Received: @unchecked Sendable { var data = Data() }
        let received = Received()
        let done = DispatchSemaphore(value: 0)
        // A reader at the pipe's other end, as a shell's `| jq` would be.
        Thread {
            if let handle = FileHandle(forReadingAtPath: pipe) { received.data = handle.readDataToEndOfFile() }
            done.signal()
        }.start()
        try ReportFile.write(report, to: pipe)
        #expect(done.wait(timeout: .now() + 30) == .success, "the reader got nothing")
        var info = stat()
        #expect(stat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the pipe was replaced")
        #expect(try ReportFile.parse(received.data, path: pipe).benchmarks.map(\.id) == ["a"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["link.json", "pipe", "target.json"])
    }

    @Test("An empty path, or one naming a folder, is refused before anything runs")
    func noFileName() throws {
        for path in ["", "/tmp/"] {
            #expect(throws: ReportFileError.unwritable(path: path, reason: "no file name")) { try ReportFile.checkWritable(path) }
        }
    }

    @Test("Malformed JSON, a missing file, a wrong version and a missing key each get their own error")
    func badFiles() throws {
        let folder = try TemporaryFolder()
        let malformed = folder.path("malformed.json")
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: malformed))
        #expect {
            try ReportFile.read(malformed)
        } throws: { error in
            guard case .malformed(let path, _)? = error as? ReportFileError else { return false }
            return path == malformed
        }
        let missing = folder.path("missing.json")
        #expect { try ReportFile.read(missing) } throws: { error in
            if case .unreadable? = error as? ReportFileError { return true }
            return false
        }
        let future = folder.path("future.json")
        try Data(#"{"schemaVersion": 99}"#.utf8).write(to: URL(fileURLWithPath: future))
        #expect(throws: ReportFileError.incompatibleVersion(path: future, found: 99, expected: Report.currentSchemaVersion)) {
            try ReportFile.read(future)
        }
        let incomplete = folder.path("incomplete.json")
        try Data(#"{"schemaVersion": 1, "suite": "x"}"#.utf8).write(to: URL(fileURLWithPath: incomplete))
        #expect { try ReportFile.read(incomplete) } throws: { error in
            guard case .malformed(_, let reason)? = error as? ReportFileError else { return false }
            return reason.contains("metadata")
        }
    }

    @Test("An unwritable path is refused before anything is written")
    func unwritable() throws {
        #expect(throws: ReportFileError.self) { try ReportFile.checkWritable("/nonexistent-folder/r.json") }
        let folder = try TemporaryFolder()
        #expect(throws: ReportFileError.self) { try ReportFile.checkWritable(folder.url.path) }
    }
}
