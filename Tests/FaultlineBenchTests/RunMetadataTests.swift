import Foundation
import Testing
@testable import FaultlineBench

/// A report's git commit is the one of the checkout its binary was built
/// from, wherever the suite runs: the README runs suites from /tmp, where git
/// asked about the working directory found no commit, or another repository's.
@Suite("Run metadata names the commit of the checkout the binary was built from")
struct RunMetadataTests {
    /// This package's root: the test file is Tests/FaultlineBenchTests/RunMetadataTests.swift.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().resolvingSymlinksInPath()

    private func git(_ arguments: [String], in folder: String) throws -> String {
        let identity = ["-c", "user.name=Faultline", "-c", "user.email=ci@faultline.invalid"]
        return try BaselineHistory.git(identity + arguments, in: folder).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("A suite started in another repository's folder records this checkout's commit, not that repository's")
    func commitOfTheBuild() throws {
        let expected = try git(["rev-parse", "HEAD"], in: Self.packageRoot.path)
        let folder = try TemporaryFolder()
        _ = try git(["init", "-q"], in: folder.url.path)
        _ = try git(["commit", "-q", "--allow-empty", "-m", "another repository"], in: folder.url.path)
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("Reference")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "\(executable.path) is not built")
        let process = Process()
        process.executableURL = executable
        process.currentDirectoryURL = folder.url
        process.arguments = ["--profile", "quick", "--filter", "^raw.fetch rows=1000$", "--iterations", "1", "--warmup", "0",
                             "--quiet", "--json", folder.path("report.json")]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let report = try ReportFile.read(folder.path("report.json"))
        #expect(report.metadata.gitCommit == expected)
        #expect(report.metadata.gitDirty != nil)
    }

    @Test("The checkout is the package root compiled into the binary, and only when it is a checkout's top level")
    func sourceCheckout() throws {
        #expect(RunMetadata.sourceCheckout() == Self.packageRoot.path)
        #expect(RunMetadata.sourceCheckout(of: "/nonexistent/Sources/FaultlineBench/Reporting/RunMetadata.swift") == nil)
        // A package without .git unpacked inside another repository is not that repository's commit.
        let folder = try TemporaryFolder()
        _ = try git(["init", "-q"], in: folder.url.path)
        let package = folder.url.appendingPathComponent("vendor/faultline")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try Data().write(to: package.appendingPathComponent("Package.swift"))
        let source = package.appendingPathComponent("Sources/FaultlineBench/Reporting/RunMetadata.swift").path
        #expect(RunMetadata.sourceCheckout(of: source) == nil)
        _ = try git(["init", "-q"], in: package.path)
        #expect(RunMetadata.sourceCheckout(of: source) == package.resolvingSymlinksInPath().path)
    }
}
