import Foundation
import FaultlineSQLite

/// The machine, build and source a report came from.
public struct RunMetadata: Codable, Sendable {
    /// UTC start time of the run, ISO 8601.
    public var timestamp: String
    /// The commit checked out, when the run started, in the checkout this
    /// binary was compiled from (`sourceCheckout`), wherever the run is
    /// started; nil when that checkout is gone or is no git repository.
    public var gitCommit: String?
    /// Whether tracked files differed from `gitCommit` when the run started.
    public var gitDirty: Bool?
    public var cpuModel: String
    public var coreCount: Int
    public var memoryBytes: UInt64
    public var kernel: String
    public var operatingSystem: String
    public var swiftVersion: String
    public var sqliteVersion: String
    public var jemallocVersion: String?
    /// `Allocations.settings` when the run started; absent in older reports.
    public var allocatorSettings: String?
    /// Which malloc served the run: "jemalloc", whose counts the allocation
    /// metrics are, or "system" (another malloc preloaded, or a build without
    /// jemalloc), with no allocation metrics. Absent in older reports.
    public var malloc: String?
    /// "release" or "debug" (`buildConfigurations`; a report with another
    /// value is refused). Debug figures are not comparable with release ones.
    public var buildConfiguration: String
    /// What `buildConfiguration` can be: the one `#if DEBUG` picks at compile time.
    public static let buildConfigurations = ["release", "debug"]
    /// Whether the per-iteration peak memory could be reset (see PeakMemory).
    public var peakMemoryIsPerIteration: Bool
    public var arguments: [String]

    public var isDebugBuild: Bool { buildConfiguration != "release" }

    /// Reads the current machine, build and git state.
    public static func current(arguments: [String] = CommandLine.arguments) -> RunMetadata {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let checkout = sourceCheckout()
        let commit = checkout.flatMap { runGit(["rev-parse", "HEAD"], in: $0) }
        let status = checkout.flatMap { commit == nil ? nil : runGit(["status", "--porcelain", "--untracked-files=no"], in: $0) }
        return RunMetadata(
            timestamp: formatter.string(from: Date()),
            gitCommit: commit,
            gitDirty: status.map { !$0.isEmpty },
            cpuModel: cpuModel(),
            coreCount: ProcessInfo.processInfo.activeProcessorCount,
            memoryBytes: ProcessInfo.processInfo.physicalMemory,
            kernel: kernel(),
            operatingSystem: operatingSystem(),
            swiftVersion: compilerVersion,
            sqliteVersion: Connection.sqliteVersion,
            jemallocVersion: Allocations.version,
            allocatorSettings: Allocations.settings,
            malloc: Allocations.servesMalloc ? "jemalloc" : "system",
            buildConfiguration: buildConfiguration,
            peakMemoryIsPerIteration: PeakMemory.canReset,
            arguments: Array(arguments.dropFirst()))
    }

    static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    // The compiler that built this binary; the toolchain may not be on PATH at run time.
    static var compilerVersion: String {
        #if compiler(>=6.4)
        return "6.4 or later"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }

    private static func cpuModel() -> String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in info.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown"
    }

    private static func kernel() -> String {
        var name = utsname()
        uname(&name)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        }
        return "\(text(name.sysname)) \(text(name.release)) \(text(name.machine))"
    }

    private static func operatingSystem() -> String {
        guard let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) else { return "unknown" }
        for line in release.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
            return line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return "unknown"
    }

    /// Where this file was when it was compiled. A stored constant, since
    /// `#filePath` as a default argument would be the caller's file.
    static let compiledPath = #filePath

    /// The root of the git checkout this file was compiled in, or nil.
    ///
    /// Not the working directory: the README runs suites from /tmp so their
    /// Results/ land there, and git asked there found no commit, or the
    /// commit of whatever other repository the run started in. The compiler
    /// records this file's path (`#filePath`), whatever the scratch path, so
    /// the package root is four components up. It must be a checkout's top
    /// level itself: a source tree without `.git` unpacked inside another
    /// repository would otherwise report that repository's commit.
    ///
    /// What it cannot know: whether the checkout moved on after the build. A
    /// binary run without rebuilding after a commit or checkout records the
    /// new HEAD (`swift run` and `./tasks.sh` build first).
    static func sourceCheckout(of sourceFile: String = compiledPath) -> String? {
        var root = URL(fileURLWithPath: sourceFile)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        let path = root.resolvingSymlinksInPath().path
        guard FileManager.default.fileExists(atPath: path + "/Package.swift"),
              let top = runGit(["rev-parse", "--show-toplevel"], in: path),
              URL(fileURLWithPath: top).resolvingSymlinksInPath().path == path
        else { return nil }
        return path
    }

    private static func runGit(_ arguments: [String], in checkout: String) -> String? {
        guard let result = ChildProcess.run("git", ["-C", checkout] + arguments), result.status == 0 else { return nil }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
