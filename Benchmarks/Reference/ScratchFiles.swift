import Foundation

/// Database files in a private temporary folder, removed when the suite ends.
final class ScratchFiles {
    let folder: URL
    private var counter = 0

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("faultline-reference-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A fresh, unused database path.
    func newDatabasePath(_ label: String) -> String {
        counter += 1
        return folder.appendingPathComponent("\(label)-\(counter).sqlite").path
    }

    /// Removes a database and its WAL and shared-memory files.
    func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    func removeAll() {
        try? FileManager.default.removeItem(at: folder)
    }
}
