import FaultlineSQLite
import Foundation

/// The SQLite file I/O of the measured work, counted by FaultlineSQLite's VFS
/// shim: every suite keeps its stores under the temporary directory, which one
/// `IOScope` watches from the start of a suite's run (a file belongs to the
/// scope when it opens after it). Reference lines and Faultline's lines go
/// through the same shim, so a ratio of their times is unchanged by it.
enum FileIO {
    static let scope: IOScope? = try? IOScope(directory: FileManager.default.temporaryDirectory.path)

    /// Opens the scope; call before any benchmark opens a store.
    static func start() { _ = scope }
}
