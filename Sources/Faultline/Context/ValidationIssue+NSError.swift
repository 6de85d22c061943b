import Foundation

/// One validation failure as an `NSError`: Core Data's validation code, the
/// key under `NSValidationErrorKey` and the object's ID under
/// `NSValidationErrorObject`.
extension ValidationIssue: CustomNSError {
    public static var errorDomain: String { NSCocoaErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description,
                                   CoreDataErrorCode.validationObjectErrorKey: objectID]
        if let key { info[CoreDataErrorCode.validationKeyErrorKey] = key }
        return info
    }
}
