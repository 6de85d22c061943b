import Foundation
/// Core Data's validation error codes (`NSValidation…Error`).
public enum ValidationCode: Int, Sendable, Hashable {
    case custom = 1550
    case missingMandatoryProperty = 1570
    case relationshipLacksMinimumCount = 1580
    case relationshipExceedsMaximumCount = 1590
    case relationshipDeniedDelete = 1600
    case tooLarge = 1610
    case tooSmall = 1620
    case dateTooLate = 1630
    case dateTooSoon = 1640
    case tooLong = 1660
    case tooShort = 1670
    case patternMismatch = 1680

    init(_ code: ValidationFailure.Code) {
        self = ValidationCode(rawValue: code.rawValue) ?? .custom
    }
}

/// One validation failure: which object, which key, what went wrong.
public struct ValidationIssue: Error, Sendable, Hashable, CustomStringConvertible {
    public let objectID: ManagedObjectID
    public let entity: String
    /// The property, or nil for an object-level failure.
    public let key: String?
    public let code: ValidationCode
    public let message: String

    /// A failure to throw from `validateForInsert`, `validateValue(_:forKey:)`…;
    /// the save fills in the object.
    public static func custom(_ message: String, key: String? = nil, code: ValidationCode = .custom) -> CustomValidationFailure {
        CustomValidationFailure(message: message, key: key, code: code)
    }

    public var description: String {
        "\(entity)\(key.map { ".\($0)" } ?? "") (\(objectID)): \(code) — \(message)"
    }
}

/// Thrown by an object's own validation methods.
public struct CustomValidationFailure: Error, Sendable {
    public let message: String
    public let key: String?
    public let code: ValidationCode
}

/// A save that could not happen. The store is unchanged and the context keeps
/// its changes, so the caller can correct them and save again.
public enum SaveError: Error, CustomStringConvertible {
    /// Every validation failure of every object, collected at once.
    case validation([ValidationIssue])
    /// Conflicts the merge policy does not resolve (with `.error`: all of them),
    /// each naming the objects involved.
    case conflicts([SaveConflict])
    /// `willSave` kept changing objects for this many passes.
    case willSaveDidNotSettle(passes: Int)
    /// `save()` was called while this context was saving, from `willSave`,
    /// `didSave` or a validation method: Core Data's infinite loop, refused.
    case recursiveSave
    /// Typed-key assignments refused since the last save (a key naming no
    /// property, of another type, or a destination of another context): a
    /// subscript setter cannot throw, so the save does, once, and writes nothing.
    case refusedAccess([ObjectAccessError])
    /// Faults the store could not fulfil since the last save (FaultFailure):
    /// what was read or changed through them may be incomplete, so the save
    /// writes nothing; it throws them once, and saving again writes.
    case unfulfilledFaults([FaultFailure])

    public var description: String {
        switch self {
        case .validation(let issues):
            return "validation failed:\n" + issues.map { "  \($0)" }.joined(separator: "\n")
        case .conflicts(let conflicts):
            return "save conflicts:\n" + conflicts.map { "  \($0)" }.joined(separator: "\n")
        case .willSaveDidNotSettle(let passes):
            return "willSave changed objects on each of \(passes) passes; make it idempotent"
        case .refusedAccess(let errors):
            return "typed-key assignments were refused:\n" + errors.map { "  \($0)" }.joined(separator: "\n")
        case .unfulfilledFaults(let failures):
            return "objects could not be read from the store, so nothing was saved:\n"
                + failures.map { "  \($0)" }.joined(separator: "\n")
        case .recursiveSave:
            return "save() called while the context was saving (from willSave, didSave or validation); save after it returns"
        }
    }

    /// The validation issues, if this is a validation error.
    public var validationIssues: [ValidationIssue] {
        if case .validation(let issues) = self { return issues }
        return []
    }
}

extension ValidationIssue: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}

extension CustomValidationFailure: LocalizedError {
    /// The message, so `localizedDescription` says it.
    public var errorDescription: String? { message }
}

extension SaveError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
