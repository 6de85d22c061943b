import Foundation
/// One way a store Core Data wrote differs from the model it is opened with.
/// Each names the entity, table, column, index or hash concerned.
public enum CoreDataStoreDifference: Sendable, Hashable, CustomStringConvertible {
    /// `NSStoreModelVersionHashes` names an entity the model's compiled hashes lack (or vice versa).
    case entityOnlyInStoreHashes(String)
    case entityOnlyInModelHashes(String)
    /// The entity's 32-byte hash differs (hex shown).
    case hashDiffers(entity: String, store: String, model: String)
    case tableOnlyInStore(table: String)
    case tableOnlyInModel(table: String, entities: [String])
    case columnOnlyInStore(table: String, column: String, declaredType: String, entities: [String])
    case columnOnlyInModel(table: String, column: String, declaredType: String, entities: [String])
    case columnTypeDiffers(table: String, column: String, store: String, model: String, entities: [String])
    /// An index present on one side only, or with other columns / uniqueness.
    case indexOnlyInStore(table: String, index: String, definition: String)
    case indexOnlyInModel(table: String, index: String, definition: String)
    /// `Z_PRIMARYKEY` numbers entities differently from the model.
    case entityNumberDiffers(entityNumber: Int, store: String, model: String)

    public var description: String {
        func owners(_ entities: [String]) -> String {
            entities.isEmpty ? "" : " (entity \(entities.joined(separator: ", ")))"
        }
        switch self {
        case .entityOnlyInStoreHashes(let entity):
            return "entity \(entity) is in the store's NSStoreModelVersionHashes but not in the model's hashes"
        case .entityOnlyInModelHashes(let entity):
            return "entity \(entity) is in the model's hashes but not in the store's NSStoreModelVersionHashes"
        case .hashDiffers(let entity, let store, let model):
            return "entity \(entity): store hash \(store) ≠ model hash \(model)"
        case .tableOnlyInStore(let table):
            return "table \(table) is in the store but not in the model's schema"
        case .tableOnlyInModel(let table, let entities):
            return "table \(table)\(owners(entities)) is in the model's schema but not in the store"
        case .columnOnlyInStore(let table, let column, let type, let entities):
            return "column \(table).\(column) \(type)\(owners(entities)) is in the store but not in the model"
        case .columnOnlyInModel(let table, let column, let type, let entities):
            return "column \(table).\(column) \(type)\(owners(entities)) is in the model but not in the store"
        case .columnTypeDiffers(let table, let column, let store, let model, let entities):
            return "column \(table).\(column)\(owners(entities)) is \(store) in the store but \(model) in the model"
        case .indexOnlyInStore(let table, let index, let definition):
            return "index \(index) on \(table) \(definition) is in the store but not in the model"
        case .indexOnlyInModel(let table, let index, let definition):
            return "index \(index) on \(table) \(definition) is in the model but not in the store"
        case .entityNumberDiffers(let number, let store, let model):
            return "Z_PRIMARYKEY entity \(number) is \(store) in the store but \(model) in the model"
        }
    }
}

/// Why a store Core Data wrote could not be opened, or a write to it was refused.
public enum CoreDataStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file at the path (a Core Data store is never created by this path).
    case missingStore(path: String)
    /// Not a Core Data SQLite store: no Z_METADATA / Z_PRIMARYKEY, or unreadable metadata.
    case notACoreDataStore(path: String, reason: String)
    /// The store does not match the model; nothing was written.
    case modelMismatch(path: String, differences: [CoreDataStoreDifference])
    /// A trigger calls a Core Data SQL function Faultline does not implement;
    /// the write that fired it was refused and rolled back.
    case unsupportedFunction(name: String, triggers: [String])
    /// The store was opened with a model inferred from its schema, which is
    /// for reading only; nothing was written.
    case inferredModelIsReadOnly(path: String)
    /// The store was opened with `CoreDataStoreOptions(readOnly: true)`; nothing was written.
    case openedReadOnly(path: String)

    public var description: String {
        switch self {
        case .missingStore(let path):
            return "no Core Data store at \(path)"
        case .notACoreDataStore(let path, let reason):
            return "\(path) is not a Core Data SQLite store: \(reason)"
        case .modelMismatch(let path, let differences):
            return "the store \(path) does not match the model (\(differences.count) difference"
                + (differences.count == 1 ? "" : "s") + "):\n"
                + differences.map { "  - \($0)" }.joined(separator: "\n")
        case .unsupportedFunction(let name, let triggers):
            return "write refused: trigger \(triggers.joined(separator: ", ")) calls Core Data's SQL function \(name)(), "
                + "which Faultline does not implement; the transaction was rolled back and the store is unchanged"
        case .openedReadOnly(let path):
            return "write refused: \(path) was opened read-only (CoreDataStoreOptions.readOnly); nothing was written"
        case .inferredModelIsReadOnly(let path):
            return "write refused: \(path) was opened with a model inferred from its schema (it carries none), which "
                + "cannot know its booleans, inverses or validation rules; it is for reading only, and nothing was written"
        }
    }
}

extension CoreDataStoreError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
