import Foundation

/// Core Data's error codes and user-info keys beyond the validation codes
/// (`ValidationCode`): what a save's error carries when read as an `NSError`,
/// as Core Data code reads it (`error.code == NSValidationMultipleErrorsError`,
/// `error.userInfo[NSDetailedErrorsKey]`). Linux's Foundation lacks Core
/// Data's constants; the values and key strings are Core Data's.
public enum CoreDataErrorCode {
    /// `NSValidationMultipleErrorsError`: several validation failures, each in
    /// `detailedErrorsKey`.
    public static let validationMultipleErrors = 1560
    /// `NSManagedObjectMergeError`: rows changed since they were read.
    public static let managedObjectMerge = 133_020
    /// `NSManagedObjectConstraintMergeError`: uniqueness constraints violated.
    public static let managedObjectConstraintMerge = 133_021
    /// `NSCoreDataError`: any other failed save.
    public static let coreData = 134_060

    /// `NSDetailedErrorsKey`: the `NSError` of each validation failure.
    public static let detailedErrorsKey = "NSDetailedErrors"
    /// `NSValidationKeyErrorKey`: the key that failed validation.
    public static let validationKeyErrorKey = "NSValidationErrorKey"
    /// `NSValidationObjectErrorKey`: the object that failed validation — its
    /// `ManagedObjectID` here, since an error may cross queues and an object
    /// may not.
    public static let validationObjectErrorKey = "NSValidationErrorObject"
    /// `NSPersistentStoreSaveConflictsErrorKey`: the conflicts, as `[SaveConflict]`.
    public static let saveConflictsErrorKey = "conflictList"
}
