import Foundation
import FaultlineSQLite

/// Why a batch request failed. A failed request changes nothing: every request
/// runs in one transaction that is rolled back on the first error.
public enum BatchError: Error, Equatable, CustomStringConvertible {
    /// The model has no entity of this name.
    case unknownEntity(String)
    /// The entity is abstract: only its sub-entities have instances (Core Data refuses too).
    case abstractEntity(String)
    /// The entity has no stored attribute or to-one relationship `key`.
    case unknownProperty(entity: String, key: String)
    /// `key` cannot be written by a batch request (derived, transient, to-many).
    case readOnlyProperty(entity: String, key: String)
    /// Row `row` gave `key` a value its type does not accept.
    case wrongType(row: Int, key: String, expected: AttributeType, got: String)
    /// Row `row` broke a validation rule of `key` (only when validation is enforced).
    case validationFailed(row: Int, key: String, failure: ValidationFailure)
    /// Row `row` left the required `key` without a value (only when validation is enforced).
    case missingValue(row: Int, key: String)
    /// Row `row` duplicates a stored row (or an earlier row) on a uniqueness constraint.
    case uniquenessViolation(row: Int, entity: String, constraint: [String])
    /// A batch update would give two rows of `entity` the same values on a
    /// uniqueness constraint; nothing was written.
    case updateViolatesUniqueness(entity: String, constraint: [String])
    /// A handle made for another entity or request.
    case foreignHandle(row: Int, key: String)
    /// A to-one was given an object ID of the wrong entity or store.
    case foreignObjectID(row: Int, key: String, id: String)
    /// A lookup by unique key named an attribute that is not a single-attribute
    /// uniqueness constraint of the destination.
    case notAUniqueKey(entity: String, attribute: String)
    /// A batch delete met a deny rule: `entity`'s `relationship` still has destinations.
    case deleteDenied(entity: String, relationship: String)
    /// An update expression that is not in the small expression language.
    case invalidExpression(String, reason: String)
    /// A predicate the batch requests cannot compile to SQL.
    case unsupportedPredicate(String)
    /// An object ID from another store.
    case foreignStore(String)

    public var description: String {
        switch self {
        case .unknownEntity(let name): return "the model has no entity '\(name)'"
        case .abstractEntity(let name): return "\(name) is abstract: insert one of its sub-entities"
        case .unknownProperty(let entity, let key): return "\(entity) has no stored attribute or to-one '\(key)'"
        case .readOnlyProperty(let entity, let key): return "\(entity).\(key) cannot be written by a batch request"
        case .wrongType(let row, let key, let expected, let got):
            return "row \(row): '\(key)' expects \(expected) but was given \(got)"
        case .validationFailed(let row, let key, let failure): return "row \(row): '\(key)' failed \(failure)"
        case .missingValue(let row, let key): return "row \(row): required '\(key)' has no value"
        case .uniquenessViolation(let row, let entity, let constraint):
            return "row \(row): duplicates a stored or earlier \(entity) row on uniqueness constraint (\(constraint.joined(separator: ", ")))"
        case .updateViolatesUniqueness(let entity, let constraint):
            return "the update would give two \(entity) rows the same values on uniqueness constraint ("
                + constraint.joined(separator: ", ") + "); nothing was written"
        case .foreignHandle(let row, let key): return "row \(row): the handle for '\(key)' belongs to another entity"
        case .foreignObjectID(let row, let key, let id): return "row \(row): '\(key)' cannot refer to \(id)"
        case .notAUniqueKey(let entity, let attribute):
            return "\(entity).\(attribute) is not a single-attribute uniqueness constraint"
        case .deleteDenied(let entity, let relationship):
            return "cannot delete \(entity) objects: '\(relationship)' still has destinations (deny rule)"
        case .invalidExpression(let text, let reason): return "invalid update expression '\(text)': \(reason)"
        case .unsupportedPredicate(let reason): return "batch predicate not supported: \(reason)"
        case .foreignStore(let id): return "object ID \(id) does not belong to this store"
        }
    }
}

/// The name of a value's type for error messages.
func batchTypeName(_ value: Any) -> String { String(describing: type(of: value)) }

extension BatchError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
