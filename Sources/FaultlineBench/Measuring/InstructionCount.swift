import CCallgrind
import Foundation

/// A line's instructions, counted by callgrind. `--instructions` runs the
/// suite's own executable again under `valgrind --tool=callgrind
/// --collect-atstart=no`, once per line, selecting that line (and its
/// reference) with one warm-up and one measured iteration; the child switches
/// collection on only around that line's measured closure. Same binary, same
/// input: the same count on every run, whatever else the machine does.
enum InstructionCount {
    /// In the child: the id of the line whose measured iteration is collected.
    static let lineVariable = "FAULTLINE_CALLGRIND_LINE"

    static let collectedLine: String? =
        fl_running_on_valgrind() == 1 ? ProcessInfo.processInfo.environment[lineVariable] : nil

    /// Whether this process collects `id`'s measured iterations.
    static func collects(_ id: String) -> Bool { collectedLine == id }

    static func toggleCollection() { fl_callgrind_toggle_collect() }

    /// The parent's side: a copy of the executable valgrind can read, and a
    /// folder for callgrind's output.
    struct Counter {
        let folder: URL
        let executable: String
        let valgrind: String

        init() throws(InstructionCountError) {
            guard fl_callgrind_available() == 1 else { throw .unavailable("this build had no valgrind headers (apt-get install valgrind)") }
            guard let valgrind = Self.find("valgrind") else { throw .unavailable("valgrind is not on PATH (apt-get install valgrind)") }
            guard let strip = Self.find("strip") else { throw .unavailable("strip is not on PATH (apt-get install binutils)") }
            self.valgrind = valgrind
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-callgrind-\(UUID().uuidString)")
            executable = folder.appendingPathComponent("suite").path
            do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                throw .unavailable("cannot create \(folder.path): \(error)")
            }
            // Valgrind 3.19 cannot read the DWARF 5 forms Swift 6 writes; a copy
            // without the debug sections runs the same code.
            guard let own = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
                throw .unavailable("cannot find the suite's own executable (/proc/self/exe)")
            }
            let (status, output) = Self.run(strip, ["--strip-debug", "-o", executable, own])
            guard status == 0 else { throw .unavailable("strip --strip-debug failed: \(output)") }
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }

        /// The instructions of `id`'s one measured iteration, in total and by
        /// the functions that executed them; `suiteArguments` are the suite's
        /// own flags (`BenchmarkSuite.suiteArguments`).
        func count(line id: String, profile: SuiteProfile,
                   suiteArguments: [String] = []) throws(InstructionCountError) -> (total: Double, profile: CallgrindProfile) {
            let output = folder.appendingPathComponent("callgrind.out").path
            try? FileManager.default.removeItem(atPath: output)
            let pattern = "^" + NSRegularExpression.escapedPattern(for: id) + "$"
            let arguments = ["--tool=callgrind", "--collect-atstart=no", "--fair-sched=yes", "--callgrind-out-file=\(output)", executable]
                + suiteArguments
                + ["--profile", profile.rawValue, "--filter", pattern, "--iterations", "1", "--warmup", "1",
                   "--max-seconds", "100000", "--quiet", "--json", folder.appendingPathComponent("child.json").path]
            // Fixed hashing, and jemalloc purging never: its decay is timed, and
            // under valgrind's slowdown the purges land in different calls.
            let environment = [lineVariable: id, "SWIFT_DETERMINISTIC_HASHING": "1",
                               "MALLOC_CONF": "dirty_decay_ms:-1,muzzy_decay_ms:-1"]
            let (status, log) = Self.run(valgrind, arguments, environment: environment)
            guard status == 0 else { throw .childFailed(line: id, status: status, output: String(log.suffix(2_000))) }
            guard let text = try? String(contentsOfFile: output, encoding: .utf8),
                  let count = Self.totalInstructions(callgrindOutput: text)
            else { throw .unreadableOutput(line: id, path: output) }
            return (count, CallgrindProfile(callgrindOutput: text))
        }

        /// The `totals:` (or `summary:`) line's first event, Ir.
        static func totalInstructions(callgrindOutput text: String) -> Double? {
            for prefix in ["totals:", "summary:"] {
                for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
                    if let first = line.dropFirst(prefix.count).split(separator: " ").first, let value = Double(first) {
                        return value
                    }
                }
            }
            return nil
        }

        static func find(_ program: String) -> String? {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            return path.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }

        static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) -> (Int32, String) {
            guard let result = ChildProcess.run(program, arguments, environment: environment, mergingErrors: true) else {
                return (-1, "\(program) could not be started")
            }
            return (result.status, result.output)
        }
    }
}

public enum InstructionCountError: Error, CustomStringConvertible {
    case unavailable(String)
    case childFailed(line: String, status: Int32, output: String)
    case unreadableOutput(line: String, path: String)

    public var description: String {
        switch self {
        case .unavailable(let why): "--instructions: \(why)"
        case .childFailed(let line, let status, let output):
            "--instructions: counting '\(line)' under callgrind failed (exit \(status)):\n\(output)"
        case .unreadableOutput(let line, let path): "--instructions: no instruction total for '\(line)' in \(path)"
        }
    }
}
