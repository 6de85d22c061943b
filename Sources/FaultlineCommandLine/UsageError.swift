/// A command line that cannot be carried out; the message names the problem
/// and, where there are few, the values that would have been accepted.
public struct UsageError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    public static func unknownOption(_ option: String) -> UsageError {
        UsageError("unknown argument '\(option)'")
    }

    /// `flag` was given `value`, which is not one of `allowed`.
    public static func unknownValue(_ value: String, for flag: String, kind: String, allowed: [String]) -> UsageError {
        UsageError("\(flag): unknown \(kind) '\(value)' (\(allowedText(allowed)))")
    }

    static func allowedText(_ allowed: [String]) -> String {
        allowed.isEmpty ? "there are none" : "one of: " + allowed.joined(separator: ", ")
    }
}

/// The one way a command reports bad input: a line `error: …`, the usage
/// after it when the command line itself was wrong, and exit status 2.
public enum CommandFailure {
    public static let status: Int32 = 2

    /// - Parameter problem: an error or a message, written as its description.
    public static func report(_ problem: Any, usage: String? = nil, write: (String) -> Void) -> Int32 {
        write("error: \(problem)\n" + (usage.map { $0 + "\n" } ?? ""))
        return status
    }
}
