import Synchronization

/// The distinct SQL texts executed, on any connection, while a recording runs:
/// how a benchmark learns which statements its workload really issued, so it
/// can record their query plans without restating the SQL by hand.
///
/// Process-wide because a workload's statements run on whichever connection
/// the coordinator picks. Off, it costs one atomic load per execution.
public enum StatementLog {
    /// Also what keeps recordings one at a time: a second one would see the
    /// first one's statements.
    private static let recording = Atomic<Bool>(false)
    private static let texts = Mutex<(seen: Set<String>, ordered: [String])>((seen: [], ordered: []))

    static var isRecording: Bool { recording.load(ordering: .relaxed) }

    /// Runs `body` and returns the distinct statements it executed, in the order
    /// each first ran.
    public static func record<Result>(_ body: () throws -> Result) throws -> (result: Result, statements: [String]) {
        guard recording.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
        else { throw StatementLogError.alreadyRecording }
        defer { recording.store(false, ordering: .sequentiallyConsistent) }
        texts.withLock { $0 = (seen: [], ordered: []) }
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
