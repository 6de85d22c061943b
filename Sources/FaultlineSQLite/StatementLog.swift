import Foundation
import Synchronization

/// The distinct SQL texts executed, on any connection, while a recording runs:
/// how a benchmark learns which statements its workload really issued, so it
/// can record their query plans without restating the SQL by hand.
///
/// Process-wide because a workload's statements run on whichever connection
/// the coordinator picks. Off, it costs one atomic load per execution.
/// Recordings run one at a time (a second one would see the first one's
/// statements): one started on another thread waits for the running one to
/// end — tests running in parallel record without colliding — and one
/// started inside a recording on its own thread is refused.
public enum StatementLog {
    private static let recording = Atomic<Bool>(false)
    private static let texts = Mutex<(seen: Set<String>, ordered: [String])>((seen: [], ordered: []))
    /// Held for the whole of a recording (a pthread mutex, which
    /// ThreadSanitizer understands, like `Locked`).
    private static let turn = NSLock()
    /// The thread whose recording runs, to refuse a nested one instead of
    /// deadlocking on `turn`.
    private static let owner = Mutex<pthread_t?>(nil)

    static var isRecording: Bool { recording.load(ordering: .relaxed) }

    /// Runs `body` and returns the distinct statements it executed, in the order
    /// each first ran.
    public static func record<Result>(_ body: () throws -> Result) throws -> (result: Result, statements: [String]) {
        let current = pthread_self()
        if owner.withLock({ $0.map { pthread_equal($0, current) != 0 } ?? false }) { throw StatementLogError.alreadyRecording }
        turn.lock()
        defer { turn.unlock() }
        owner.withLock { $0 = current }
        defer { owner.withLock { $0 = nil } }
        texts.withLock { $0 = (seen: [], ordered: []) }
        recording.store(true, ordering: .sequentiallyConsistent)
        defer { recording.store(false, ordering: .sequentiallyConsistent) }
        let result = try body()
        return (result, texts.withLock { $0.ordered })
    }

    static func note(_ sql: String) {
        texts.withLock { log in
            if log.seen.insert(sql).inserted { log.ordered.append(sql) }
        }
    }
}

public enum StatementLogError: Error, Equatable, CustomStringConvertible {
    case alreadyRecording
    public var description: String { "a statement recording is already running" }
}

extension StatementLogError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
