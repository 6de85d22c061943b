import Foundation
import FaultlineSQLite

// Core Data's `NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:options:)`:
// a store's metadata read from its file, without a coordinator, so an app can
// ask whether the store needs migrating (`isConfiguration(withName:compatibleWithStoreMetadata:)`)
// before opening it. The file is only read: opened as `store inspect` opens a
// store (immutable when no `-wal` or `-journal` is beside it), never created,
// never switched to WAL.

/// Why a store file's metadata could not be read.
public enum StoreMetadataReadError: Error, Equatable, CustomStringConvertible {
    /// Nothing at the path.
    case missingStore(path: String)
    /// The file is not a store: not an SQLite database, or one without `Z_METADATA`.
    case notAStore(path: String, reason: String)
    /// A store whose metadata or file is damaged (`Z_METADATA` without its row,
    /// `Z_PLIST` not a property list, SQLite reporting corruption).
    case corrupt(path: String, reason: String)
    /// The file could not be read (permissions, I/O).
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .missingStore(let path): return "no store at \(path)"
        case .notAStore(let path, let reason): return "\(path) is not a store: \(reason)"
        case .corrupt(let path, let reason): return "the store at \(path) is damaged: \(reason)"
        case .unreadable(let path, let reason): return "the store at \(path) cannot be read: \(reason)"
        }
    }
}

extension StoreMetadataReadError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}

extension PersistentStoreCoordinator {
    /// The metadata of the store at `url` (Core Data's
    /// `metadataForPersistentStore(ofType:at:options:)`), a store Faultline or
    /// Core Data wrote, read without opening it for writing: the file is never
    /// created or changed (a `-wal` without its `-shm` gets one, as any reader
    /// makes it). Custom keys an app stored are in `additional`.
    public static func metadataForPersistentStore(at url: URL) throws(StoreMetadataReadError) -> StoreMetadata {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missingStore(path: path) }
        guard !isDirectory.boolValue else { throw .notAStore(path: path, reason: "it is a directory") }
        do {
            return try inspecting(url) { connection in
                guard try connection.hasTable(named: "Z_METADATA") else {
                    throw StoreMetadataReadError.notAStore(path: path, reason: "it has no Z_METADATA table")
                }
                return try StoreBootstrap.metadata(on: connection)
            }
        } catch let error as StoreMetadataReadError {
            throw error
        } catch let error as StoreMetadataError {
            throw .corrupt(path: path, reason: error.description)
        } catch let error as SQLiteError {
            switch error.code {
            case .notADatabase: throw .notAStore(path: path, reason: "not an SQLite database")
            case .corrupt: throw .corrupt(path: path, reason: error.description)
            default: throw .unreadable(path: path, reason: error.description)
            }
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    /// Runs `body` on a connection that reads the store at `url` without ever
    /// writing it (`Connection.Configuration.inspecting`).
    ///
    /// An immutable connection reads without SQLite's locks: another
    /// connection's checkpoint writing the file meanwhile (one closing the
    /// store as this one opens it) shows it torn. A failure is retried twice
    /// more, a moment apart — under the locks once a `-wal` shows the store in
    /// use — before it stands; a file that is not a store fails each time.
    static func inspecting<Result>(_ url: URL, _ body: (Connection) throws -> Result) throws -> Result {
        var attempt = 0
        while true {
            let configuration = Connection.Configuration.inspecting(url.path)
            do {
                return try body(Connection(.file(url.path), configuration: configuration))
            } catch where configuration.immutable && attempt < 2 {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.002 * Double(attempt))
            }
        }
    }
}
