import FaultlineTools
import Foundation

/// An input written to a file and opened as a store the way `faultline-bench
/// store inspect` opens one: SQLite's header and pages, Core Data's tables,
/// its model cache, the match to a model and the rows. Any refusal is fine;
/// only a crash or a hang is a finding.
public enum StoreFileInput: FuzzTarget {
    public static let name = "store"

    static let directory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-fuzz-store-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // libFuzzer and the test runner end with exit(): the folder goes with
        // the process (a crash keeps it, beside its finding).
        atexit { try? FileManager.default.removeItem(at: StoreFileInput.directory) }
        return directory
    }()

    public static func run(_ input: Data) -> String? {
        let path = directory.appendingPathComponent("input.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        guard FileManager.default.createFile(atPath: path, contents: input) else { return nil }
        _ = StoreCommand.run(["inspect", path]) { _ in }
        return nil
    }
}
