// Where the real Core Data stores and model files are: one place for every test
// target. They live beside the project, never in it: `../shared/coredata-stores`
// from the package root, or the folder named by FAULTLINE_COREDATA_FIXTURES.
// A test that needs them and runs without them is cancelled (reported as skipped)
// with one line saying what is missing and how to point the tests at it; it
// never fails for that and never passes having checked nothing. Tests read a
// copy of the folder made once per process, so no run changes the originals.

import Foundation
import Testing

public enum CoreDataFixtures {
    /// Names the `coredata-stores` folder; overrides the folder beside the package.
    public static let environmentVariable = "FAULTLINE_COREDATA_FIXTURES"

    /// The fixture folder as found beside the package or named by the
    /// environment, or nil when it is not there. Tests never read it in
    /// place: see `workingCopy`.
    public static let source: URL? = {
        let fileManager = FileManager.default
        func isDirectory(_ url: URL) -> Bool {
            var flag: ObjCBool = false
            return fileManager.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
        }
        if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty {
            let url = URL(fileURLWithPath: named).standardizedFileURL
            return isDirectory(url) ? url : nil
        }
        guard let root = packageRoot() else { return nil }
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/coredata-stores").standardizedFileURL
        return isDirectory(url) ? url : nil
    }()

    /// The folder the tests read: a writable copy of `source`, made once per
    /// test process (on the first test that asks for a fixture) and removed
    /// when it exits; nil without `source`.
    /// Reading a WAL store makes SQLite create its `-wal` and `-shm` (and
    /// recover the `-shm`) beside it, and the suites may run as root, whom a
    /// read-only folder does not stop: read in place, the fixtures would change
    /// under the tests that copy them later in the same run, and stay changed
    /// for the next run.
    private static let workingCopy: Result<URL, FixtureCopyFailed>? = source.map { source in
        let fileManager = FileManager.default
        let copy = fileManager.temporaryDirectory.appendingPathComponent("faultline-coredata-stores-\(UUID().uuidString)")
        // Folder by folder and file by file rather than one copyItem of the
        // tree: that copies the read-only folders' modes first, and a user
        // other than root then cannot write their contents.
        do {
            try fileManager.createDirectory(at: copy, withIntermediateDirectories: true)
            guard let walker = fileManager.enumerator(at: source, includingPropertiesForKeys: [.isDirectoryKey]) else {
                throw FixtureCopyFailed(source: source.path, reason: "cannot list it")
            }
            let prefix = source.standardizedFileURL.path.count + 1
            for case let url as URL in walker {
                let target = copy.appendingPathComponent(String(url.standardizedFileURL.path.dropFirst(prefix)))
                if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                    try fileManager.createDirectory(at: target, withIntermediateDirectories: true)
                } else {
                    try fileManager.copyItem(at: url, to: target)
                    try fileManager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
                }
            }
        } catch let error as FixtureCopyFailed {
            return .failure(error)
        } catch {
            return .failure(FixtureCopyFailed(source: source.path, reason: "\(error)"))
        }
        atexit { CoreDataFixtures.removeWorkingCopy() }
        return .success(copy)
    }

    private static func removeWorkingCopy() {
        if case .success(let copy) = workingCopy { try? FileManager.default.removeItem(at: copy) }
    }

    /// The one line a test prints when it cannot run for want of the fixtures.
    public static var missingMessage: String {
        if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty {
            return "Core Data fixtures not found at \(named) (from \(environmentVariable))"
        }
        return "Core Data fixtures not found at ../shared/coredata-stores beside the package; "
            + "set \(environmentVariable) to their folder to run this test"
    }

    /// The package root: the nearest folder above this file holding Package.swift.
    public static func packageRoot(filePath: String = #filePath) -> URL? {
        var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while url.path != "/" && !url.path.isEmpty {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url = url.deletingLastPathComponent()
        }
        return nil
    }

    /// The fixtures' working copy; cancels the calling test when the fixture
    /// folder is missing, and fails it when the folder could not be copied.
    public static func root() throws -> URL {
        guard let workingCopy else { try Test.cancel(Comment(rawValue: missingMessage)) }
        return try workingCopy.get()
    }

    /// The fixture at `relative` (under `coredata-stores`). The folder missing
    /// cancels the test; a file missing from a folder that is there fails it.
    public static func url(_ relative: String) throws -> URL {
        let url = try root().appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else { throw MissingFixture(path: url.path) }
        return url
    }

    public static func path(_ relative: String) throws -> String { try url(relative).path }

    /// Every SQLite database under the fixtures, whatever its extension (Core
    /// Data stores are named `.sqlite`, `.store`, `.storedata`, `.db` or after the
    /// app), found by the file header; sorted, as paths relative to the root.
    public static func sqliteFiles() throws -> [String] {
        let root = try root()
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        let header = Data("SQLite format 3\0".utf8)
        var found: [String] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent
            guard !name.hasSuffix("-wal"), !name.hasSuffix("-shm"), !name.hasSuffix("-journal"),
                  (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let handle = try? FileHandle(forReadingFrom: url) else { continue }
            let start = try? handle.read(upToCount: header.count)
            try? handle.close()
            if start == header { found.append(String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))) }
        }
        return found.sorted()
    }

    /// Every model file under `relative` (the whole root when empty):
    /// `.xcdatamodeld`, `.momd`, and `.xcdatamodel` / `.mom` not inside one of
    /// those (a package's versions are read through the package); sorted,
    /// relative to the root.
    public static func modelFiles(under relative: String = "") throws -> [String] {
        let root = try root()
        let folder = relative.isEmpty ? root : root.appendingPathComponent(relative)
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var found: [String] = []
        for case let url as URL in walker where ["xcdatamodeld", "momd", "xcdatamodel", "mom"].contains(url.pathExtension) {
            found.append(String(url.standardizedFileURL.path.dropFirst(root.path.count + 1)))
            walker.skipDescendants()
        }
        return found.sorted()
    }

    /// Copies the store at `relative` and its `-wal` and `-shm`, when present, into
    /// `directory`, writable: a store of the test's own, whatever other tests of
    /// the run do to theirs (SQLite writes even when only reading: WAL recovery,
    /// the journal mode a connection sets).
    public static func copyStore(_ relative: String, into directory: URL) throws -> String {
        let source = try url(relative)
        let destination = directory.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let from = source.path + suffix
            guard FileManager.default.fileExists(atPath: from) else { continue }
            let to = destination.path + suffix
            try FileManager.default.copyItem(atPath: from, toPath: to)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: to)
        }
        return destination.path
    }

    /// A fresh, empty folder under the temporary directory.
    public static func temporaryDirectory(prefix: String = "faultline-fixtures") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The fixture folder is there but could not be copied: a real failure.
    public struct FixtureCopyFailed: Error, CustomStringConvertible {
        public let source: String
        public let reason: String
        public var description: String { "cannot copy the Core Data fixtures at \(source): \(reason)" }
    }

    /// A file missing from a fixture folder that is there: a real failure.
    public struct MissingFixture: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "fixture missing: \(path)" }
    }
}
