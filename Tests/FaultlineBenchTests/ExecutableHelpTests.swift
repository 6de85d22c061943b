import Foundation
import Testing

/// The built executables answer `--help` and `-h` with their usage and exit 0:
/// `faultline-bench` itself (whose dispatcher only `main.swift` holds), each of
/// its commands, and every suite. They are built beside this test bundle.
@Suite("The built tool, its commands and every suite answer --help with exit 0")
struct ExecutableHelpTests {
    static let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()

    static let toolCommandLines: [[String]] = [
        ["--help"], ["-h"], ["help"],
        ["compare", "--help"], ["gate", "-h"], ["report", "--help"], ["export", "-h"],
        ["predicate", "--help"], ["predicate", "parse", "a == 1", "-h"], ["model", "--help"],
        ["model", "inspect", "-h"], ["store", "--help"], ["store", "inspect", "x.sqlite", "-h"],
    ]

    static let suites = ["Reference", "Inserts", "Faulting", "Fetching", "Migrations", "Derived"]

    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let path = Self.folder.appendingPathComponent(executable).path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is not built")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test("faultline-bench", arguments: toolCommandLines)
    func tool(arguments: [String]) throws {
        let result = try run("faultline-bench", arguments)
        #expect(result.status == 0, "\(arguments): \(result.output)")
        #expect(result.output.hasPrefix("usage: faultline-bench"), "\(arguments): \(result.output)")
        #expect(!result.output.contains("error:"), "\(arguments): \(result.output)")
    }

    @Test("Each suite", arguments: suites, [["--help"], ["-h"]])
    func suite(name: String, arguments: [String]) throws {
        let result = try run(name, arguments)
        #expect(result.status == 0, "\(name) \(arguments): \(result.output)")
        #expect(result.output.contains("usage: <Suite>"), "\(name): \(result.output)")
        #expect(result.output.contains("--filter REGEX"), "\(name): \(result.output)")
    }
}
