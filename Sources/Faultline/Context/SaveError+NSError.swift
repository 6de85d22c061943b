import Foundation

/// A failed save read as an `NSError` carries Core Data's domain, code and
/// keys: one validation failure its own code, several
/// `NSValidationMultipleErrorsError` with each in `NSDetailedErrors`,
/// conflicts `NSManagedObjectMergeError` (or the constraint merge error when
/// all are uniqueness conflicts) with them under `conflictList`.
extension SaveError: CustomNSError {
    public static var errorDomain: String { NSCocoaErrorDomain }

    public var errorCode: Int {
        switch self {
        case .validation(let issues) where issues.count == 1: issues[0].errorCode
        case .validation: CoreDataErrorCode.validationMultipleErrors
        case .conflicts(let conflicts):
            conflicts.allSatisfy(\.isUniqueness) ? CoreDataErrorCode.managedObjectConstraintMerge : CoreDataErrorCode.managedObjectMerge
        case .willSaveDidNotSettle, .recursiveSave, .refusedAccess, .unfulfilledFaults: CoreDataErrorCode.coreData
        }
    }

    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        switch self {
        case .validation(let issues) where issues.count == 1:
            info.merge(issues[0].errorUserInfo) { own, _ in own }
        case .validation(let issues):
            info[CoreDataErrorCode.detailedErrorsKey] = issues.map { $0 as NSError }
        case .conflicts(let conflicts):
            info[CoreDataErrorCode.saveConflictsErrorKey] = conflicts
        case .willSaveDidNotSettle, .recursiveSave, .refusedAccess, .unfulfilledFaults:
            break
        }
        return info
    }
}
