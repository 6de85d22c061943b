// Finds the read-only Core Data store fixtures and copies them somewhere
// writable. The fixtures live outside the package, in `shared/coredata-stores`
// beside the package root (`<clone>/../shared/coredata-stores` in CI,
// `/work/shared/coredata-stores` on the development machine).

import Foundation

/// The fixtures could not be found or copied; the message says where it looked.
struct FixtureLocatorError: Error, CustomStringConvertible {
    let description: String
}

enum FixtureLocator {
    /// The `coredata-stores` directory. Looks beside the package root found by
    /// walking up from this source file to the directory holding `Package.swift`,
    /// then at `/work/shared`. Throws (never skips) when neither exists.
    static func storesDirectory() throws -> URL {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            if fileManager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                candidates.append(directory.deletingLastPathComponent()
                    .appendingPathComponent("shared").appendingPathComponent("coredata-stores"))
                break
            }
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: "/work/shared/coredata-stores"))
        var seen = Set<String>()
        candidates = candidates.map(\.standardizedFileURL).filter { seen.insert($0.path).inserted }
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
        }
        throw FixtureLocatorError(description: """
            The Core Data store fixtures are missing: looked for a `shared/coredata-stores` directory at \
            \(candidates.map(\.path).joined(separator: ", ")) (the package root is found from \(#filePath)). \
            Check out the shared fixtures beside the package (`<clone>/../shared/coredata-stores`).
            """)
    }

    /// Copies the store at `relativePath` (under `coredata-stores`) and its `-wal`
    /// and `-shm` files, when present, into `directory`, made writable; returns
    /// the copy's path. The fixtures are read-only and SQLite writes even when
    /// only reading (WAL recovery, the journal mode the connection sets).
    static func copyStore(_ relativePath: String, into directory: URL) throws -> String {
        let fileManager = FileManager.default
        let source = try storesDirectory().appendingPathComponent(relativePath)
        guard fileManager.fileExists(atPath: source.path) else {
            throw FixtureLocatorError(description: "The fixture store \(source.path) is missing.")
        }
        let destination = directory.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let from = source.path + suffix
            guard fileManager.fileExists(atPath: from) else { continue }
            let to = destination.path + suffix
            try fileManager.copyItem(atPath: from, toPath: to)
            try fileManager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: to)
        }
        return destination.path
    }

    /// A fresh empty directory under the temporary directory.
    static func makeTemporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("faultline-fixture-schemas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
