import FaultlineModelFiles
import Foundation

/// Xcode's model file: an input read as a `contents` document and as an
/// `elements` archive. Any `ModelFileError` is a fine answer; a version that
/// reads must also check (or refuse with a typed error) as a model.
public enum ModelFileInput: FuzzTarget {
    public static let name = "model-file"

    public static func run(_ input: Data) -> String? {
        let reader = ModelFileReader()
        for version in [try? reader.readContents(input), try? reader.readElements(input)] {
            guard let version else { continue }
            _ = try? version.model.checked()
        }
        return nil
    }
}

/// A compiled model: an input read as a `.mom` archive and as a store's
/// `Z_MODELCACHE` blob (raw deflate around the archive).
public enum CompiledModelInput: FuzzTarget {
    public static let name = "compiled-model"

    public static func run(_ input: Data) -> String? {
        for version in [
            try? CompiledModelReader.model(fromArchive: input, versionName: "fuzz", file: "fuzz.mom"),
            try? CompiledModelReader.model(fromModelCache: input),
        ] {
            guard let version else { continue }
            _ = try? version.model.checked()
        }
        return nil
    }
}
