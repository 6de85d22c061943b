// Where the real Core Data stores and model files are: one place for every test
// target. They live beside the project, never in it: `../shared/coredata-stores`
// from the package root, or the folder named by FAULTLINE_COREDATA_FIXTURES.
// A test that needs them and runs without them is cancelled (reported as skipped)
// with one line saying what is missing and how to point the tests at it; it
// never fails for that and never passes having checked nothing.

import Foundation
import Testing

public enum CoreDataFixtures {
    /// Names the `coredata-stores` folder; overrides the folder beside the package.
    public static let environmentVariable = "FAULTLINE_COREDATA_FIXTURES"

    /// The fixture folder, or nil when it is not there.
    public static let directory: URL? = {
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

    /// The fixture folder; cancels the calling test when it is missing.
    public static func root() throws -> URL {
        guard let directory else { try Test.cancel(Comment(rawValue: missingMessage)) }
        return directory
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
    /// `directory`, made writable (the fixtures are read-only, and SQLite writes
    /// even when only reading: WAL recovery, the journal mode a connection sets).
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

    /// A file missing from a fixture folder that is there: a real failure.
    public struct MissingFixture: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "fixture missing: \(path)" }
    }
}
