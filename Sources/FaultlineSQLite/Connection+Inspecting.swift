import Foundation

extension Connection.Configuration {
    /// Read-only, and opening creates no file beside `path` but one: the
    /// `-shm` of a WAL database that has a `-wal` and no `-shm`.
    ///
    /// A read-only SQLite connection still creates a WAL database's `-wal`
    /// and `-shm` and leaves them behind. So a WAL database is opened
    /// `immutable` (no side files, no locks) when nothing beyond its main
    /// file can hold committed data: no `-wal` beside the file SQLite opens
    /// (symlinks resolved, as SQLite resolves them) and no `-journal`. Any
    /// other file gets a plain read-only open: a rollback-journal database
    /// opened read-only creates nothing, and immutable mode would read a hot
    /// journal's half-written pages as committed. Reading a `-wal` takes its
    /// shared-memory index, which SQLite builds in a `-shm` it creates when
    /// missing (as Core Data and `sqlite3` do); the `-shm` holds no data, and
    /// removing it after could pull it from under another process that opened
    /// the store meanwhile, so it stays. An existing `-shm` whose index does
    /// not match the `-wal` is rebuilt in place, as any reader rebuilds it.
    public static func inspecting(_ path: String) -> Connection.Configuration {
        var configuration = Connection.Configuration()
        configuration.readOnly = true
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let sideFiles = ["-wal", "-journal"].contains { FileManager.default.fileExists(atPath: real + $0) }
        configuration.immutable = !sideFiles && isWALDatabase(real)
        return configuration
    }

    /// Whether the file's header says WAL mode: its write and read format
    /// versions (bytes 18 and 19) are both 2.
    static func isWALDatabase(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else { return false }
        return header[header.startIndex + 18] == 2 && header[header.startIndex + 19] == 2
    }

    /// `file:` URI opening `path` with `immutable=1`. SQLite decodes %HH in
    /// the path, so '%', '?' and '#' are encoded; an absolute path gets an
    /// empty authority (`file:///…`), or one starting `//` would be read as a host.
    static func immutableURI(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return (path.hasPrefix("/") ? "file://" : "file:") + encoded + "?immutable=1"
    }
}
