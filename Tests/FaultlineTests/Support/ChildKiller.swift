import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a child test process (TestChildProcess) and kills it with SIGKILL
/// once it has made progress: the parent's half of the crash tests.
enum ChildKiller {
    struct Outcome {
        /// Whether the kill landed while the child was still working.
        let killedWhileRunning: Bool
        /// How the child ended: a kill shows as the uncaught signal SIGKILL.
        let reason: Process.TerminationReason
        let status: Int32
        /// Seconds from start to the kill.
        let killedAfter: TimeInterval
    }

    /// Starts the child, waits until `progressed()` holds (polling every
    /// millisecond, for at most `timeout`), lets it run `delay` longer, then
    /// kills it and waits for it to end.
    static func run(filter: String, variable: String, value: String, timeout: TimeInterval = 20,
                    delay: TimeInterval, progressed: () -> Bool) throws -> Outcome {
        let started = Date()
        let child = try TestChildProcess.start(filter: filter, variable: variable, value: value)
        while Date().timeIntervalSince(started) < timeout, child.isRunning, !progressed() {
            usleep(1_000)
        }
        if delay > 0, child.isRunning { usleep(useconds_t(delay * 1_000_000)) }
        let running = child.isRunning
        kill(child.processIdentifier, SIGKILL)
        let killedAfter = Date().timeIntervalSince(started)
        child.waitUntilExit()
        return Outcome(killedWhileRunning: running, reason: child.terminationReason, status: child.terminationStatus,
                       killedAfter: killedAfter)
    }
}

/// The numbers a child appends, one per line, each after the work it names
/// has committed: what the parent may hold the store to after a kill.
struct ProgressLog {
    let path: String

    /// Appends `number` with one write(2): in the kernel before the next
    /// statement runs, so a kill right after cannot lose it.
    func append(_ number: Int) {
        let line = Array("\(number)\n".utf8)
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else { return }
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    /// Every complete line written so far.
    var numbers: [Int] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: true).compactMap { Int($0) }
    }
}
