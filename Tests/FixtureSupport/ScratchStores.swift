import Foundation

/// Store files the tests make, in one folder of the temporary directory that
/// is removed when the test process exits: a test that fails before its
/// clean-up, or has none, leaves nothing behind.
public enum ScratchStores {
    public static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("faultline-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchStores.folder) }
        return folder
    }()

    /// A fresh store path in the folder.
    public static func url() -> URL {
        folder.appendingPathComponent("store-\(UUID().uuidString).sqlite")
    }
}
