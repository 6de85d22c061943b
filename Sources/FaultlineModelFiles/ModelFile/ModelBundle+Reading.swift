import Foundation
import FaultlineModel

extension ModelBundle {
    /// Every version of the model at `url`, in whichever form Xcode left it:
    /// a `.xcdatamodeld`, `.xcdatamodel` or `contents` file (`ModelFileReader`),
    /// the compiled `.momd` / `.mom` (`CompiledModelReader`), or a Core Data
    /// SQLite store, whose cached `Z_MODELCACHE` model is one version of that name.
    ///
    /// - Throws: `ModelFileError` or `CompiledModelError`, naming the file.
    public static func read(at url: URL) throws -> ModelBundle {
        switch url.pathExtension {
        case "momd": return try CompiledModelReader.bundle(fromMOMD: url)
        case "mom": return try CompiledModelReader.bundle(fromMOM: url)
        default:
            guard isSQLiteFile(url) else { return try ModelFileReader().read(at: url) }
            let version = try CompiledModelReader.model(fromModelCacheOf: url)
            return ModelBundle(name: url.deletingPathExtension().lastPathComponent, versions: [version])
        }
    }

    /// Whether `url` is a file starting with SQLite's header.
    private static func isSQLiteFile(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
    }
}
