import Foundation
import FaultlineSupport

/// Files beside the store that a migration's transaction writes or makes
/// obsolete (Core Data's external binary data, converted when an attribute's
/// `allowsExternalBinaryDataStorage` changes): their fate follows the
/// transaction's. Written files are removed if it rolls back; obsolete ones
/// only once it has committed — removed earlier, a rolled-back migration
/// would leave rows naming files that are gone.
final class MigrationFileChanges: Sendable {
    private let files = Locked<(written: [URL], released: [URL])>(([], []))

    func wrote(_ file: URL) { files.withLock { $0.written.append(file) } }
    func released(_ file: URL) { files.withLock { $0.released.append(file) } }

    /// Called once the outermost transaction has committed or rolled back.
    func ended(committed: Bool) {
        let (written, released) = files.withLock { files in
            defer { files = ([], []) }
            return files
        }
        for file in committed ? released : written { try? FileManager.default.removeItem(at: file) }
    }
}
