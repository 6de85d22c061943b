import Foundation

/// SQL debug output, in the spirit of Core Data's `-com.apple.CoreData.SQLDebug`.
///
/// `FAULTLINE_SQL_DEBUG=1` prints each statement to stderr when it starts
/// executing; `=2` prints it with its bound values expanded, then the rows it
/// returned and the time it took once it completes. The level is read once per
/// process, so a disabled trace costs one load and branch per execution.
public enum SQLDebug {
    /// The active level: 0 (off), 1 (statements) or 2 (statements, values, rows, time).
    public static let level: Int = {
        guard let raw = ProcessInfo.processInfo.environment["FAULTLINE_SQL_DEBUG"],
              let level = Int(raw.trimmingCharacters(in: .whitespaces))
        else { return 0 }
        return max(0, min(level, 2))
    }()

    static func write(_ line: String) {
        FileHandle.standardError.write(Data(("faultline-sql: " + line + "\n").utf8))
    }
}
