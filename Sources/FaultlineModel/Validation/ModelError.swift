import Foundation
// The error `ManagedObjectModel.checked()` throws: every issue found, at once.

/// Every problem `checked()` found, all at once.
public struct ModelError: Error, Hashable, Sendable, CustomStringConvertible {
    public let issues: [ModelIssue]

    /// Whether some issue has exactly this kind.
    public func contains(_ kind: ModelIssue.Kind) -> Bool {
        issues.contains { $0.kind == kind }
    }

    public var description: String {
        "The model has \(issues.count) problem(s):\n" + issues.map { "- \($0)" }.joined(separator: "\n")
    }
}

extension ModelError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
