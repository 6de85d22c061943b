import Foundation
import FaultlineModel

extension ModelBundle {
    /// Every version of the model at `url`, in whichever form Xcode left it:
    /// a `.xcdatamodeld`, `.xcdatamodel` or `contents` file (`ModelFileReader`),
    /// or the compiled `.momd` / `.mom` (`CompiledModelReader`).
    ///
    /// - Throws: `ModelFileError` or `CompiledModelError`, naming the file.
    public static func read(at url: URL) throws -> ModelBundle {
        switch url.pathExtension {
        case "momd": return try CompiledModelReader.bundle(fromMOMD: url)
        case "mom": return try CompiledModelReader.bundle(fromMOM: url)
        default: return try ModelFileReader().read(at: url)
        }
    }
}
