import Faultline
import FaultlineSQLite
import Foundation

/// A failure the model and store commands report with exit status 2.
struct InspectError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reading model files for the inspect commands.
enum InspectModels {
    /// Every version of the model file or bundle at `path`; for a Core Data
    /// store, the model it cached in `Z_MODELCACHE` (one version of that name).
    static func bundle(at path: String) throws(InspectError) -> ModelBundle {
        guard FileManager.default.fileExists(atPath: path) else { throw InspectError("no model file at '\(path)'") }
        let bundle: ModelBundle
        do {
            bundle = try ModelBundle.read(at: URL(fileURLWithPath: path))
        } catch {
            throw InspectError("cannot read model '\(path)': \(error)")
        }
        guard !bundle.versions.isEmpty else { throw InspectError("model '\(path)' has no version") }
        return bundle
    }

    /// The version checked, with placeholder transformers for the ones the
    /// model names (schemas and diffs need their names, never their values).
    static func checked(_ version: ModelBundleVersion) throws(InspectError) -> CheckedModel {
        PlaceholderTransformer.registerMissing(in: version.model)
        do {
            return try version.model.checked()
        } catch {
            throw InspectError("version '\(version.name)' is not a valid model: \(error)")
        }
    }

    static func schema(_ model: CheckedModel, name: String) throws(InspectError) -> StoreSchema {
        do {
            return try StoreSchema(compiling: model)
        } catch {
            throw InspectError("version '\(name)' does not compile to a schema: \(error)")
        }
    }
}

enum InspectFormat {
    /// `integer16AttributeType` → `integer16`.
    static func type(_ type: AttributeType) -> String {
        let name = String(describing: type)
        return name.hasSuffix("AttributeType") ? String(name.dropLast("AttributeType".count)) : name
    }

    static func hex(_ data: Data, limit: Int = 8) -> String {
        let bytes = data.prefix(limit).map { byte -> String in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return bytes.joined() + (data.count > limit ? "…" : "")
    }

    static func bytes(_ count: Int) -> String {
        count < 10_240 ? "\(count) B" : "\(count / 1024) KiB"
    }

    /// `text` right-padded to `width` characters.
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
