@testable import Faultline

extension SaveError {
    /// Whether `error` is a save that failed on conflicts, `conflict` first.
    static func failed(_ error: any Error, firstOn conflict: SaveConflict) -> Bool {
        guard case SaveError.conflicts(let conflicts) = error else { return false }
        return conflicts.first == conflict
    }
}
