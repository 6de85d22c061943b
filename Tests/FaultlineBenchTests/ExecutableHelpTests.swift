import Foundation
import Testing

/// The built executables answer `--help` and `-h` with their usage and exit 0:
/// `faultline` and `faultline-bench` themselves, each of their commands, and
/// every suite. They are built beside this test bundle.
@Suite("The built tools, their commands and every suite answer --help with exit 0")
struct ExecutableHelpTests {
    static let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()

    static let benchCommandLines: [[String]] = [
        ["--help"], ["-h"], ["help"],
        ["compare", "--help"], ["gate", "-h"], ["report", "--help"], ["export", "-h"], ["history", "--help"],
        ["completion", "--help"],
    ]

    static let toolCommandLines: [[String]] = [
        ["--help"], ["-h"], ["help"], ["bench", "--help"], ["bench", "gate", "-h"], ["completion", "-h"],
        ["predicate", "--help"], ["predicate", "parse", "a == 1", "-h"], ["model", "--help"],
        ["model", "inspect", "-h"], ["store", "--help"], ["store", "inspect", "x.sqlite", "-h"],
    ]

    static let suites = ["Reference", "Inserts", "Faulting", "Fetching", "Migrations", "Derived"]

    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let path = Self.folder.appendingPathComponent(executable).path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is not built")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe(), errorPipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errorPipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        let errors = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    @Test("faultline", arguments: toolCommandLines)
    func tool(arguments: [String]) throws {
        let result = try run("faultline", arguments)
        #expect(result.status == 0, "\(arguments): \(result.output)")
        #expect(result.output.hasPrefix("usage: faultline"), "\(arguments): \(result.output)")
        #expect(!result.output.contains("error:") && result.errors.isEmpty, "\(arguments): \(result.output)")
    }

    @Test("faultline-bench", arguments: benchCommandLines)
    func bench(arguments: [String]) throws {
        let result = try run("faultline-bench", arguments)
        #expect(result.status == 0, "\(arguments): \(result.output)")
        #expect(result.output.hasPrefix("usage: faultline-bench"), "\(arguments): \(result.output)")
        #expect(!result.output.contains("error:") && result.errors.isEmpty, "\(arguments): \(result.output)")
    }

    @Test("faultline-bench model, store and predicate still run, with a deprecation line on standard error")
    func deprecatedNames() throws {
        for command in ["model", "store", "predicate"] {
            let old = try run("faultline-bench", [command, "--help"])
            let new = try run("faultline", [command, "--help"])
            #expect(old.status == 0 && old.output == new.output, "\(command): \(old.output)")
            #expect(old.errors == "warning: `faultline-bench \(command)` is deprecated and goes in the next release: use `faultline \(command)`\n")
        }
        let parse = try run("faultline-bench", ["predicate", "parse", "a == 1"])
        #expect(parse.status == 0 && parse.output.contains("predicate: a == 1"), "\(parse.output)")
    }

    @Test("Each suite", arguments: suites, [["--help"], ["-h"]])
    func suite(name: String, arguments: [String]) throws {
        let result = try run(name, arguments)
        #expect(result.status == 0, "\(name) \(arguments): \(result.output)")
        #expect(result.output.contains("usage: <Suite>"), "\(name): \(result.output)")
        #expect(result.output.contains("--filter REGEX"), "\(name): \(result.output)")
    }
}
