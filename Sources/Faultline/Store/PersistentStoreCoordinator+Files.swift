import Foundation
import FaultlineSQLite

// A store's files, copied and destroyed: Core Data's
// `replacePersistentStore(at:…withPersistentStoreFrom:…)` (here `copyStore(to:)`,
// from the open store) and `destroyPersistentStore(at:…)`.
//
// A store is more than its main file. While it is open, committed
// transactions live in its `-wal` until a checkpoint, so a copy of the main
// file alone opens as an older store, or an empty one. Beside it are `-shm`,
// a `-journal` after a crash, and for a store Core Data wrote the support
// folder `.<StoreName>_SUPPORT/` holding `_EXTERNAL_DATA/`.
//
// Invariants:
// 1. A copy is one read snapshot of committed data, taken through a connection
//    of the store with SQLite's online backup API (`Connection.backup(toFile:)`),
//    never a copy of the main file's bytes. Its Z_METADATA is the source's,
//    UUID included, as Core Data's file-level copy keeps it.
// 2. With a support folder, the snapshot and the folder's copy are taken under
//    the writer's lock, so no commit of this coordinator falls between them.
// 3. The destination is replaced, never half-written: the copy is written
//    beside it under a temporary name; the destination's `-wal`, `-shm` and
//    `-journal` (which would be replayed into the new file) are removed, then
//    the copy is renamed over it, then its support folder swapped.
// 4. Nothing is replaced or destroyed that a live coordinator of this process
//    has open (`OpenStores`), and nothing is destroyed that does not begin with
//    SQLite's header.

extension PersistentStoreCoordinator {
    /// What sits beside a store file with its name and one of these suffixes
    /// belongs to it.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// SQLite's file header, the first 16 bytes of every database file.
    static let sqliteHeader = Data("SQLite format 3\0".utf8)

    /// `<dir>/.<StoreName>_SUPPORT` for `<dir>/<StoreName>.sqlite`: where Core
    /// Data keeps a store's external binary data (`_EXTERNAL_DATA/`).
    public static func supportDirectory(forStoreAt url: URL) -> URL {
        url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent)_SUPPORT", isDirectory: true)
    }

    /// One spelling per file, so two URLs of the same file compare equal.
    static func canonicalPath(_ url: URL) -> String {
        url.standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Writes a consistent copy of this store — its committed data as of one
    /// moment, with what its `-wal` holds, and its support folder when it has
    /// one — to `destination`, replacing any store there, while the store stays
    /// in use: reads go on, and a save waits only while a store with a support
    /// folder is copied. The copy opens as this store (same model, same UUID).
    /// Core Data's `replacePersistentStore(at:withPersistentStoreFrom:)` with
    /// this store as the source; an in-memory store is copied to a file too.
    ///
    /// Throws `StoreError.copyOntoItself` for this store's own file,
    /// `StoreError.storeInUse` when a live coordinator of this process has the
    /// destination open (nothing changed in either case), `StoreError.busy`,
    /// the `SQLiteError` of the copy, or `StoreError.storeFileOperationFailed`;
    /// on a failure before the final rename the destination is left as it was.
    /// Cost: every page of the store is read and written once, and every file
    /// of the support folder copied.
    public func copyStore(to destination: URL) throws {
        let target = Self.canonicalPath(destination)
        if let own = location.fileURL, Self.canonicalPath(own) == target {
            throw StoreError.copyOntoItself(path: destination.path)
        }
        guard !OpenStores.isOpen(path: target) else { throw StoreError.storeInUse(path: destination.path) }
        let files = FileManager.default
        let directory = destination.deletingLastPathComponent()
        let token = UUID().uuidString
        let temporary = directory.appendingPathComponent(".\(destination.lastPathComponent).\(token).copy")
        let temporarySupport = directory.appendingPathComponent(".\(destination.lastPathComponent).\(token).support")
        defer {
            try? files.removeItem(at: temporary)
            try? files.removeItem(at: temporarySupport)
        }
        let support = location.fileURL.map(Self.supportDirectory(forStoreAt:)).flatMap { folder in
            files.fileExists(atPath: folder.path) ? folder : nil
        }
        if let support {
            try writer.withConnection { connection in
                try connection.backup(toFile: temporary.path)
                try Self.fileOperation(temporarySupport) { try files.copyItem(at: support, to: temporarySupport) }
            }
        } else {
            try withReader { try $0.backup(toFile: temporary.path) }
        }
        try Self.removeCompanions(of: destination)
        // rename(2) replaces the destination in one step: a reader sees the old file or the copy.
        guard rename(temporary.path, destination.path) == 0 else {
            throw StoreError.storeFileOperationFailed(path: destination.path, reason: String(cString: strerror(errno)))
        }
        let destinationSupport = Self.supportDirectory(forStoreAt: destination)
        try Self.fileOperation(destinationSupport) {
            if files.fileExists(atPath: destinationSupport.path) { try files.removeItem(at: destinationSupport) }
            if support != nil { try files.moveItem(at: temporarySupport, to: destinationSupport) }
        }
    }

    /// Removes the store at `url`: its file, `-wal`, `-shm`, `-journal` and
    /// support folder (Core Data's `destroyPersistentStore(at:type:options:)`).
    /// A missing file is nothing to destroy: it returns without deleting.
    ///
    /// Throws, deleting nothing, `StoreError.storeInUse` when a live coordinator
    /// of this process has the store open (another process is not detected:
    /// destroy only a store no other process uses), and
    /// `StoreError.notASQLiteFile` for a file (or folder) that does not begin
    /// with SQLite's header; `StoreError.storeFileOperationFailed` when a
    /// removal fails. The companions go first, so a crash midway never leaves
    /// a `-wal` to be replayed into a new store of the same name.
    public static func destroyPersistentStore(at url: URL) throws {
        guard !OpenStores.isOpen(path: canonicalPath(url)) else { throw StoreError.storeInUse(path: url.path) }
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return }
        guard !isDirectory.boolValue, try hasSQLiteHeader(url) else { throw StoreError.notASQLiteFile(path: url.path) }
        try removeCompanions(of: url)
        try fileOperation(url) { try files.removeItem(at: url) }
        let support = supportDirectory(forStoreAt: url)
        if files.fileExists(atPath: support.path) { try fileOperation(support) { try files.removeItem(at: support) } }
    }

    private static func hasSQLiteHeader(_ url: URL) throws -> Bool {
        try fileOperation(url) {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            return try handle.read(upToCount: sqliteHeader.count) == sqliteHeader
        }
    }

    /// Removes `-wal`, `-shm` and `-journal` beside `url`, where present.
    private static func removeCompanions(of url: URL) throws {
        for suffix in companionSuffixes {
            let companion = URL(fileURLWithPath: url.path + suffix)
            guard FileManager.default.fileExists(atPath: companion.path) else { continue }
            try fileOperation(companion) { try FileManager.default.removeItem(at: companion) }
        }
    }

    /// Runs a file-system step, its failure typed as `storeFileOperationFailed`.
    private static func fileOperation<Result>(_ url: URL, _ body: () throws -> Result) throws -> Result {
        do { return try body() } catch {
            throw StoreError.storeFileOperationFailed(path: url.path, reason: "\(error)")
        }
    }
}
