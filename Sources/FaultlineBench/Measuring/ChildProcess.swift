import Foundation

/// A program run to completion: git for a run's metadata and the baselines'
/// history, valgrind for instruction counts.
enum ChildProcess {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `program` (a path, or a name looked up on PATH through env) with
    /// `environment` added to this process's. The error stream is read after
    /// the output, so a child must not fill its pipe with errors meanwhile;
    /// `mergingErrors` sends both streams to `output` instead. Nil when the
    /// program cannot be started.
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:],
                    mergingErrors: Bool = false) -> Result? {
        let process = Process()
        if program.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = mergingErrors ? output : errors
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = mergingErrors ? Data() : errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self),
                      errors: String(decoding: message, as: UTF8.self))
    }
}
