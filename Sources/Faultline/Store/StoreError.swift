import Foundation

/// Why a store could not be opened or written.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The store was written by another model (hashes as base64;
    /// `storeHash` is `notWrittenByFaultline` for a store without one).
    case modelMismatch(storeHash: String, modelHash: String)
    /// The file is not a store Faultline can open (e.g. no Z_METADATA).
    case notAStore(String)
    /// An object ID from another store, or of an entity the model lacks.
    case foreignObjectID(String)
    /// No row exists for the ID.
    case objectNotFound(String)
    /// Another connection or process held the store's write lock for longer
    /// than the busy timeout (a store option); retry, or raise the timeout.
    case busy(timeout: TimeInterval)
    /// `Z_PRIMARYKEY` cannot hand out keys for the hierarchy whose root has
    /// this entity number (a damaged store).
    case primaryKeysUnavailable(entityNumber: Int, reason: String)
    /// A row's `Z_ENT` names no entity of the model (a damaged or foreign store).
    case unknownEntityNumber(Int64, primaryKey: Int64)
    /// A large binary value could not be written to its file beside a Core
    /// Data store (`_EXTERNAL_DATA`); the save was rolled back.
    case externalDataUnwritable(path: String, reason: String)
    /// The store records persistent history but was opened with
    /// `persistentHistoryTracking: false`: every write is refused, as Core
    /// Data opens such a store read-only, so history readers miss nothing.
    case persistentHistoryTrackingOff(path: String)
    /// The store has no persistent-history tables to read.
    case noPersistentHistory(path: String)
    /// The store was opened with `readOnly: true`: every write is refused.
    case openedReadOnly(path: String)
    /// Query generations need a store file read through its own connections
    /// (write-ahead logging); an in-memory store has one connection.
    case queryGenerationsUnavailable(reason: String)
    /// A query-generation token of another store's context.
    case foreignQueryGeneration
    /// The store file is open through a live coordinator of this process:
    /// destroying it, or replacing it with a copy, would pull it from under
    /// that coordinator's connections. Nothing was changed.
    case storeInUse(path: String)
    /// A store was to be copied onto its own file. Nothing was changed.
    case copyOntoItself(path: String)
    /// The file does not begin with SQLite's header ("SQLite format 3\0"), so
    /// it is not a store and was not deleted.
    case notASQLiteFile(path: String)
    /// Copying or destroying a store's files failed in the file system; `path`
    /// is the file or folder the failing step worked on.
    case storeFileOperationFailed(path: String, reason: String)

    /// The store hash of a `modelMismatch` whose store records none: one
    /// Core Data (or anything but Faultline) wrote.
    public static let notWrittenByFaultline = "none (not written by Faultline)"

    public var description: String {
        switch self {
        case .modelMismatch(let store, let model):
            let advice = store == Self.notWrittenByFaultline
                ? "a store Core Data wrote opens with PersistentContainer(coreDataStoreAt:model:)"
                : "to migrate it, open it with PersistentContainer(model:location:migration:) listing the model that wrote it"
            return "the store was written by a model with version hash \(store); this model's hash is \(model) (\(advice))"
        case .notAStore(let reason): return "not a Faultline store: \(reason)"
        case .foreignObjectID(let id): return "object ID \(id) does not belong to this store"
        case .objectNotFound(let id): return "no object with ID \(id) exists in the store"
        case .busy(let timeout):
            return "the store is busy: another connection or process kept it locked for more than the busy timeout (\(timeout) s)"
        case .primaryKeysUnavailable(let number, let reason):
            return "no primary keys for entity \(number): \(reason)"
        case .unknownEntityNumber(let number, let key):
            return "the row with Z_PK \(key) has Z_ENT \(number), which names no entity of the model"
        case .externalDataUnwritable(let path, let reason):
            return "cannot write external binary data to \(path): \(reason); nothing was saved"
        case .persistentHistoryTrackingOff(let path):
            return "write refused: \(path) records persistent history (ATRANSACTION, ACHANGE) but was opened with "
                + "persistentHistoryTracking: false, so this change would be missing from its history; nothing was "
                + "written. Open it with persistentHistoryTracking nil (the default) or true"
        case .openedReadOnly(let path):
            return "write refused: \(path) was opened read-only; nothing was written"
        case .noPersistentHistory(let path):
            return "\(path) records no persistent history; open it with persistentHistoryTracking: true to record it"
        case .queryGenerationsUnavailable(let reason):
            return "query generations are unavailable: \(reason)"
        case .foreignQueryGeneration:
            return "the query-generation token belongs to another store's context"
        case .storeInUse(let path):
            return "\(path) is open through a live coordinator of this process; close it first. Nothing was changed"
        case .copyOntoItself(let path):
            return "cannot copy the store at \(path) onto itself; nothing was changed"
        case .notASQLiteFile(let path):
            return "\(path) is not a SQLite database (no \"SQLite format 3\" header); nothing was deleted"
        case .storeFileOperationFailed(let path, let reason):
            return "a store file operation on \(path) failed: \(reason)"
        }
    }
}

extension StoreError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
